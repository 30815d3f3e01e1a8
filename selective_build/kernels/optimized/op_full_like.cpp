#include <algorithm>

#include "kernels/common/declared_dtypes.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::full_like.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out)
//     -> Tensor(a!)
// portable's checks and conversion of the value (Scalar::to, as its store does); one
// vectorised fill of out's memory instead of a copy of the value per element. Every
// element gets the value, so out's dim order does not matter (portable ignores
// memory_format too: out's layout is the program's).
rt::Tensor& full_like_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar fill_value,
                          rt::Optional<int64_t> /*memory_format*/, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype()) || !Dtypes::check(context, kOp, out.dtype())) {
    return out;
  }
  if (!rt::resize_out(in, out, self.sizes().data(), self.dim())) return out;
  std::fill_n(out.data_as<float>(), out.numel(), fill_value.to<float>());
  return out;
}

}  // namespace optimized
