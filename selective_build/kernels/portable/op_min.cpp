#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::min.dim_min";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and values; indices are int64 whatever the selection.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

constexpr const char* kUnaryOp = "aten::min.unary_out";
using UnaryDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kUnaryOp).bits(),
                                      rt::selected_dtypes(kUnaryOp).bits()>;

}  // namespace

// min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_values)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void min_dim_min(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool keepdim,
                 rt::Tensor& min, rt::Tensor& min_indices) {
  extremes_along_dim<false, Dtypes>(context, kOp, self, dim, keepdim, min, min_indices);
}

// min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// The min over every element (NaN if any), into a 0-dim out of self's dtype. An empty
// self fails, as in torch (ExecuTorch's kernel returns +inf or the highest integer instead).
rt::Tensor& min_unary_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  extreme_values_out<false, UnaryDtypes>(context, kUnaryOp, self, rt::IntList(), false, out);
  return out;
}

}  // namespace portable
