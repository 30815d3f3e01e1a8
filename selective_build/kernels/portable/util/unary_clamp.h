#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/promotion.h"
#include "runtime/core/scalar_type.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {

// min(max(x, lo), hi) with either bound optional, for clamp and hardtanh:
// NaN stays NaN, and hi wins when lo > hi, as in torch.
struct UnaryClamp {
  rt::Scalar lo, hi;
  bool has_lo, has_hi;

  template <typename M>
  struct Fn {
    M lo, hi;
    bool has_lo, has_hi;
    M operator()(M x) const {
      if (x != x) return x;
      if (has_lo && x < lo) x = lo;
      if (has_hi && x > hi) x = hi;
      return x;
    }
  };
  template <typename M>
  Fn<M> bind() const {
    return Fn<M>{has_lo ? lo.to<M>() : M(), has_hi ? hi.to<M>() : M(), has_lo, has_hi};
  }
};

// Checks clamp.out's bounds, either of which may be None but not both, and gives them as a
// UnaryClamp (Note [Shared kernel checks], shape_copy.h).
inline bool check_clamp_args(const rt::OpContext& in, rt::Optional<rt::Scalar> min,
                             rt::Optional<rt::Scalar> max, UnaryClamp* clamp) {
  clamp->has_lo = min.has_value();
  clamp->has_hi = max.has_value();
  if (clamp->has_lo) clamp->lo = min.value();
  if (clamp->has_hi) clamp->hi = max.value();
  if (clamp->has_lo || clamp->has_hi) return true;
  in.fail("at least one of min and max must not be None");
  return false;
}

// Whether `value` (an Int or Bool scalar) is representable in the integer
// dtype `dtype`: torch refuses bounds that would overflow.
inline bool unary_integer_fits(ScalarType dtype, int64_t value) {
  switch (dtype) {
    case ScalarType::Byte:
      return value >= 0 && value <= 255;
    case ScalarType::Char:
      return value >= -128 && value <= 127;
    case ScalarType::Short:
      return value >= -32768 && value <= 32767;
    case ScalarType::Int:
      return value >= INT32_MIN && value <= INT32_MAX;
    default:
      return true;
  }
}

}  // namespace portable
