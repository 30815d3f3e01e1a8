#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/creation.h"
#include "kernels/portable/util/random.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::rand.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// rand.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
// Values uniform in [0, 1) from the runner's generator (Note [Random kernels]).
rt::Tensor& rand_out(rt::KernelContext& context, rt::IntList size, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, out.dtype()) || !resize_to_size_arg(in, size, out)) return out;
  Dtypes::run(context, kOp, out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // out is dense: its elements in memory order (which one gets which draw does not matter).
    T* data = static_cast<T*>(out.data());
    for (int64_t i = 0; i < out.numel(); ++i) data[i] = random_uniform<T>();
  });
  return out;
}

}  // namespace portable
