#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/dim_order_copy.h"
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
  return to_dim_order_copy<Dtypes>(rt::OpContext(context, kOp), self, dim_order, out);
}

}  // namespace portable
