#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::sign.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct Sign : UnaryStateless<Sign> {
  // -1, 0 or 1 in self's dtype; a bool is its own sign. NaN gives 0 and
  // -0.0 gives 0.0, as in torch (unlike numpy).
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_same<M, bool>::value || std::is_unsigned<M>::value) {
      return static_cast<M>(x != M(0));
    } else {
      return static_cast<M>(static_cast<int>(M(0) < x) - static_cast<int>(x < M(0)));
    }
  }
};

}  // namespace

// sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sign_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Sign>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
