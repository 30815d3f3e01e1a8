#pragma once

#include <cfloat>
#include <cstdint>

#include "kernels/portable/util/unary_clamp.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {

// Resizes `out` to a `SymInt[] size` argument (zeros, ones, empty, rand...):
// fails on more dims than a tensor has, or a size below 0 or above INT32_MAX.
__attribute__((noinline)) inline bool resize_to_size_arg(const rt::OpContext& in, rt::IntList size,
                                                         rt::Tensor& out) {
  if (size.size() > static_cast<size_t>(rt::Tensor::kMaxDims)) {
    in.fail("size has too many dims");
    return false;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || size[d] > INT32_MAX) {
      in.fail("size must be non-negative");
      return false;
    }
    sizes[d] = static_cast<int32_t>(size[d]);
  }
  return resize_out(in, out, sizes, static_cast<int>(size.size()));
}

// Whether `value` converts to `dtype` without overflow, as torch's fill
// checks: an integer dtype takes an integral value in its range or a finite
// floating one within it (truncated); a floating dtype any value whose
// magnitude, if finite, is at most its largest finite one; bool anything.
inline bool scalar_fits(rt::ScalarType dtype, const rt::Scalar& value) {
  using rt::ScalarType;
  if (dtype == ScalarType::Bool) return true;
  if (rt::is_integral_type(dtype, false)) {
    if (!value.is_floating()) return unary_integer_fits(dtype, value.to<int64_t>());
    const double x = value.to<double>();
    // 2^63 as a double: the first value an int64_t cannot hold.
    if (!(x > -9223372036854775808.0 - 1.0 && x < 9223372036854775808.0)) return false;
    return unary_integer_fits(dtype, static_cast<int64_t>(x));
  }
  const double x = value.to<double>();
  if (x != x || x - x != 0.0) return true;  // NaN and infinities convert as they are
  const double magnitude = x < 0 ? -x : x;
  switch (dtype) {
    case ScalarType::Half:
      return magnitude <= 65504.0;
    case ScalarType::BFloat16:
      return magnitude <= 3.3895313892515355e38;
    case ScalarType::Float:
      return magnitude <= static_cast<double>(FLT_MAX);
    default:
      return true;
  }
}

}  // namespace portable
