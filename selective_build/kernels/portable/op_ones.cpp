#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/creation.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::ones.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& ones_out(rt::KernelContext& context, rt::IntList size, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  if (!resize_to_size_arg(in, size, out)) return out;
  uint8_t one[8];
  converter.store_int(one, 1);
  copy_fill(out, one);
  return out;
}

}  // namespace portable
