#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_extreme.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::max.dim_max";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and values; indices are int64 whatever the selection.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

constexpr const char* kUnaryOp = "aten::max.unary_out";
using UnaryDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kUnaryOp).bits(),
                                      rt::selected_dtypes(kUnaryOp).bits()>;

}  // namespace

// max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void max_dim_max(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool keepdim,
                 rt::Tensor& max, rt::Tensor& max_values) {
  extremes_along_dim<true, Dtypes>(context, kOp, self, dim, keepdim, max, max_values);
}

// max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// The max over every element (NaN if any), into a 0-dim out of self's dtype. An empty
// self fails, as in torch (ExecuTorch's kernel returns -inf or the lowest integer instead).
rt::Tensor& max_unary_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  extreme_values_out<true, UnaryDtypes>(context, kUnaryOp, self, rt::IntList(), false, out);
  return out;
}

}  // namespace portable
