#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_clamp.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::clamp.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
// A Float self stays Float whatever the bounds' kinds (torch's result_type).
rt::Tensor& clamp_out(rt::KernelContext& context, const rt::Tensor& self,
                      rt::Optional<rt::Scalar> min, rt::Optional<rt::Scalar> max, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  portable::UnaryClamp clamp;
  if (!portable::check_clamp_args(in, min, max, &clamp)) return out;
  const float lo = clamp.has_lo ? clamp.lo.to<float>() : -__builtin_inff();
  const float hi = clamp.has_hi ? clamp.hi.to<float>() : __builtin_inff();
  unary_kernel<Dtypes>(
      in, self, out, [lo, hi](Vec x) { return clamp_vec(x, lo, hi); },
      [&] { portable::unary_map<Dtypes, Dtypes>(in, self, out, rt::ScalarType::Float, clamp); });
  return out;
}

}  // namespace optimized
