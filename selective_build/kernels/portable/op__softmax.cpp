#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_softmax.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_softmax.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _softmax_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                         bool half_to_float, rt::Tensor& out) {
  normalise_along_dim<Dtypes, Softmax>(context, kOp, self, dim, half_to_float, out);
  return out;
}

}  // namespace portable
