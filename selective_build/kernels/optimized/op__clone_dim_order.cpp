#include <cstring>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/layout.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "dim_order_ops::_clone_dim_order.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// _clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
// portable's checks; one memcpy when out keeps self's layout (the exporter's
// clone before a view), portable's strided copy when it changes the dim order.
rt::Tensor& _clone_dim_order_out(rt::KernelContext& context, const rt::Tensor& self,
                                 bool /*non_blocking*/, rt::Optional<rt::IntList> dim_order,
                                 rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!portable::shape_check_dim_order(in, dim_order, self, out) ||
      !portable::shape_same_dtype<Dtypes>(in, self, out)) {
    return out;
  }
  if (!rt::resize_out(in, out, self.sizes().data(), self.dim())) return out;
  if (same_layout(self, out)) {
    if (out.numel() > 0) memcpy(out.data(), self.data(), out.nbytes());
    return out;
  }
  portable::copy_same_shape(out, self);
  return out;
}

}  // namespace optimized
