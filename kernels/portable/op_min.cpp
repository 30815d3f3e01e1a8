#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::min.dim_min";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and values; indices are int64 whatever the selection.
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_values)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void min_dim_min(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool keepdim, rt::Tensor& min,
                 rt::Tensor& min_indices) {
  extremes_along_dim<false, Dtypes>(context, kOp, self, dim, keepdim, min, min_indices);
}

}  // namespace portable
