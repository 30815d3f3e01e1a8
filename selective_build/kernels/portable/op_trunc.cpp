#include <cmath>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::trunc.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Computed in self's dtype; integers are already whole. Bool is not
// supported, as in ExecuTorch's portable trunc.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct Trunc : UnaryStateless<Trunc> {
  // Rounds towards zero; -0.5 gives -0.0.
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_integral<M>::value) {
      return x;
    } else {
      return std::trunc(x);
    }
  }
};

}  // namespace

// trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& trunc_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Trunc>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
