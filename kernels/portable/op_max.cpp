#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::max.dim_max";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and values; indices are int64 whatever the selection.
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void max_dim_max(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool keepdim, rt::Tensor& max,
                 rt::Tensor& max_values) {
  extremes_along_dim<true, Dtypes>(context, kOp, self, dim, keepdim, max, max_values);
}

}  // namespace portable
