#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::amin.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& amin_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList dim,
                     bool keepdim, rt::Tensor& out) {
  extreme_values_out<false, Dtypes>(context, kOp, self, dim, keepdim, out);
  return out;
}

}  // namespace portable
