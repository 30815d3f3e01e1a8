#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/dim_order_copy.h"
#include "kernels/portable/util/dim_order_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "dim_order_ops::_to_dim_order_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// _to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
// Every dtype portable's kernel takes, as the entry declares them all: an operator selected
// by name gets this library's kernel alone (no Note [Dtype fallback chain]), and the
// exporter writes Long and Bool copies too. Float to Float is dim_order_copy (a change
// between contiguous and channels last: a transpose per image); the rest portable's copy
// and conversion.
rt::Tensor& _to_dim_order_copy_out(rt::KernelContext& context, const rt::Tensor& self,
                                   bool /*non_blocking*/, rt::Optional<rt::IntList> dim_order,
                                   rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (Dtypes::kEnabled.contains(rt::ScalarType::Float) && self.dtype() == rt::ScalarType::Float &&
      out.dtype() == rt::ScalarType::Float) {
    dim_order_copy<Dtypes>(in, self, dim_order, out);
    return out;
  }
  return portable::to_dim_order_copy<Dtypes>(in, self, dim_order, out);
}

}  // namespace optimized
