#include <cmath>

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
using Dtypes = rt::DtypeDispatch<rt::kFloatingDtypes.bits(), kSelected.bits()>;

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
void gelu_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const bool none = unary_string_is(in, args, 1, "approximate", "none");
  const bool tanh = unary_string_is(in, args, 1, "approximate", "tanh");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok()) return;
  if (!none && !tanh) return in.fail("approximate must be 'none' or 'tanh'");
  unary_map<Dtypes, Dtypes>(in, *self, *out, self->dtype(), Gelu{tanh});
}

}  // namespace portable
