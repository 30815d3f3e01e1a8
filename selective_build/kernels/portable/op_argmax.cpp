#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::argmax.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// torch has no argmax of bool tensors.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& argmax_out(rt::KernelContext& context, const rt::Tensor& self,
                       rt::Optional<int64_t> dim, bool keepdim, rt::Tensor& out) {
  extreme_indices_out<true, Dtypes>(context, kOp, self, dim, keepdim, out);
  return out;
}

}  // namespace portable
