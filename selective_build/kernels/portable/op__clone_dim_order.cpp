#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "dim_order_ops::_clone_dim_order.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// _clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
rt::Tensor& _clone_dim_order_out(rt::KernelContext& context, const rt::Tensor& self,
                                 bool /*non_blocking*/, rt::Optional<rt::IntList> dim_order,
                                 rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_check_dim_order(in, dim_order, self, out) || !shape_same_dtype<Dtypes>(in, self, out))
    return out;
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_same_shape(out, self);
  return out;
}

}  // namespace portable
