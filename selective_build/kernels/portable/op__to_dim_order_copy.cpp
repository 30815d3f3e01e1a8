#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "dim_order_ops::_to_dim_order_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// _to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
rt::Tensor& _to_dim_order_copy_out(rt::KernelContext& context, const rt::Tensor& self,
                                   bool /*non_blocking*/, rt::Optional<rt::IntList> dim_order,
                                   rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_check_dim_order(in, dim_order, self, out)) return out;
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, self.dtype(),
                   [&](auto t) { copy_set_source<typename decltype(t)::type>(converter); }) ||
      !Dtypes::run(context, kOp, out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  if (self.dtype() == out.dtype()) {
    copy_same_shape(out, self);
    return out;
  }
  copy_convert(out, self, converter);
  return out;
}

}  // namespace portable
