#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::gelu.out";
using Dtypes = FloatDtypes<&kOp>;

// portable's Gelu constant, for tanh's vector loop (erf's: Note [GELU]).
constexpr float kSqrtTwoOverPi = static_cast<float>(portable::Gelu::kSqrtTwoOverPi);

}  // namespace

// gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out) -> Tensor(a!)
rt::Tensor& gelu_out(rt::KernelContext& context, const rt::Tensor& self, rt::StringRef approximate,
                     rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  bool tanh = false;
  if (!portable::check_gelu_args(in, approximate, &tanh)) return out;
  const auto portable_path = [&] {
    portable::unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), portable::Gelu{tanh});
  };
  if (tanh) {
    unary_kernel<Dtypes, VecWide>(
        in, self, out,
        [](VecWide x) {
          return 0.5f * x * (1.0f + tanh_approx(kSqrtTwoOverPi * (x + 0.044715f * x * x * x)));
        },
        portable_path);
  } else {
    unary_kernel<Dtypes, VecWide>(
        in, self, out, [](VecWide x) { return gelu_erf(x); }, portable_path);
  }
  return out;
}

}  // namespace optimized
