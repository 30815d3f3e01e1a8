#include "kernels/optimized/elem/dim_order_copy.h"
#include "kernels/optimized/elem/dtypes.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "dim_order_ops::_clone_dim_order.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// _clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
// See dim_order_copy (elem/dim_order_copy.h).
rt::Tensor& _clone_dim_order_out(rt::KernelContext& context, const rt::Tensor& self,
                                 bool /*non_blocking*/, rt::Optional<rt::IntList> dim_order,
                                 rt::Tensor& out) {
  dim_order_copy<Dtypes>(rt::OpContext(context, kOp), self, dim_order, out);
  return out;
}

}  // namespace optimized
