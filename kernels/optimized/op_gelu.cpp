#include <cmath>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_args.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::gelu.out";
using Dtypes = FloatDtypes<&kOp>;

constexpr float kSqrtHalf = 0.7071067811865476f;
constexpr float kSqrtTwoOverPi = 0.7978845608028654f;

// portable's gelu for its strided path: x * Phi(x), or the tanh approximation.
struct Gelu {
  bool tanh;
  template <typename M>
  struct Fn {
    bool tanh;
    M operator()(M x) const {
      if (tanh)
        return M(0.5) * x * (M(1) + std::tanh(M(kSqrtTwoOverPi) * (x + M(0.044715) * x * x * x)));
      return M(0.5) * x * (M(1) + std::erf(x * M(kSqrtHalf)));
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
  const bool tanh = portable::string_is(approximate, "tanh");
  if (!tanh && !portable::string_is(approximate, "none")) {
    in.fail("approximate must be 'none' or 'tanh'");
    return out;
  }
  const auto portable_path = [&] {
    portable::unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), Gelu{tanh});
  };
  if (tanh) {
    unary_kernel<Dtypes>(
        in, self, out,
        [](Vec x) {
          return 0.5f * x * (1.0f + tanh_approx(kSqrtTwoOverPi * (x + 0.044715f * x * x * x)));
        },
        portable_path);
  } else {
    unary_kernel<Dtypes>(
        in, self, out, [](Vec x) { return 0.5f * x * (1.0f + erf_approx(x * kSqrtHalf)); },
        portable_path);
  }
  return out;
}

}  // namespace optimized
