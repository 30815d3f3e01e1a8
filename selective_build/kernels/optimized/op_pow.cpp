#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/layout.h"
#include "kernels/optimized/elem/vmath.h"
#include "kernels/portable/util/binary_functors.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::pow.Tensor_Scalar_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// out = x ** y over n floats: the exponents of portable::PowScalar's list a vector at a time
// (RMSNorm squares, a norm's square root), any other by std::pow.
void pow_floats(float* out, const float* x, int64_t n, float y) {
  if (y == 2.0f) return map_vec(out, x, n, [](Vec v) { return v * v; });
  if (y == 0.5f) return map_vec(out, x, n, [](Vec v) { return vsqrt(v); });
  if (y == -0.5f) return map_vec(out, x, n, [](Vec v) { return 1.0f / vsqrt(v); });
  if (y == -1.0f) return map_vec(out, x, n, [](Vec v) { return 1.0f / v; });
  if (y == 3.0f) return map_vec(out, x, n, [](Vec v) { return v * v * v; });
  if (y == -2.0f) return map_vec(out, x, n, [](Vec v) { return 1.0f / (v * v); });
  for (int64_t i = 0; i < n; ++i) out[i] = std::pow(x[i], y);
}

}  // namespace

// pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)
// A Float self and out in one layout and a number exponent (converted to float first, as
// portable and torch do): one loop over memory. Anything else (a bool exponent, other
// layouts) goes to portable's template, which also does every check.
rt::Tensor& pow_Tensor_Scalar_out(rt::KernelContext& context, const rt::Tensor& self,
                                  rt::Scalar exponent, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  bool empty = false;
  if (Dtypes::kEnabled.contains(rt::ScalarType::Float) && !exponent.is_bool() &&
      plan_fast_unary(in, self, out, &empty)) {
    if (!empty) {
      pow_floats(out.data_as<float>(), self.data_as<const float>(), out.numel(),
                 exponent.to<float>());
    }
    return out;
  }
  portable::BinaryCall call;
  call.a = &self;
  call.out = &out;
  portable::binary_scalar_op<Dtypes, portable::PowScalar>(in, call, exponent);
  return out;
}

}  // namespace optimized
