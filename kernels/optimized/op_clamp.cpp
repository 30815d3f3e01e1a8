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
  if (!min.has_value() && !max.has_value()) {
    in.fail("at least one of min and max must not be None");
    return out;
  }
  const float lo = min.has_value() ? min.value().to<float>() : -__builtin_inff();
  const float hi = max.has_value() ? max.value().to<float>() : __builtin_inff();
  unary_kernel<Dtypes>(
      in, self, out, [lo, hi](Vec x) { return clamp_vec(x, lo, hi); },
      [&] {
        portable::UnaryClamp clamp;
        clamp.has_lo = min.has_value();
        clamp.has_hi = max.has_value();
        if (clamp.has_lo) clamp.lo = min.value();
        if (clamp.has_hi) clamp.hi = max.value();
        portable::unary_map<Dtypes, Dtypes>(in, self, out, rt::ScalarType::Float, clamp);
      });
  return out;
}

}  // namespace optimized
