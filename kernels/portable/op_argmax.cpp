#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::argmax.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// torch has no argmax of bool tensors.
using Dtypes = rt::DtypeDispatch<rt::kRealDtypes.bits(), kSelected.bits()>;

}  // namespace

// argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
void argmax_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  extreme_indices_out<true, Dtypes>(context, args, kOp);
}

}  // namespace portable
