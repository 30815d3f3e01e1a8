#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_args.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::gelu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// x * Phi(x), Phi the standard normal CDF; or with approximate='tanh' the
// tanh approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
struct Gelu {
  bool tanh;

  template <typename M>
  struct Fn {
    bool tanh;
    M operator()(M x) const {
      if (tanh) {
        const M inner = M(0.7978845608028654) * (x + M(0.044715) * x * x * x);
        return M(0.5) * x * (M(1) + std::tanh(inner));
      }
      return M(0.5) * x * (M(1) + std::erf(x * M(0.7071067811865476)));
    }
  };
  template <typename M>
  Fn<M> bind() const {
    return Fn<M>{tanh};
  }
};

}  // namespace

// gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out) -> Tensor(a!)
rt::Tensor& gelu_out(rt::KernelContext& context, const rt::Tensor& self, rt::StringRef approximate,
                     rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const bool none = string_is(approximate, "none");
  const bool tanh = string_is(approximate, "tanh");
  if (!none && !tanh) {
    in.fail("approximate must be 'none' or 'tanh'");
    return out;
  }
  unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), Gelu{tanh});
  return out;
}

}  // namespace portable
