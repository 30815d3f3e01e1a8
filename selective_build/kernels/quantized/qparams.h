#pragma once

// How ExecuTorch 1.5.1's choose_qparams kernels (kernels/quantized/cpu/op_choose_qparams.cpp)
// derive an asymmetric scale and zero point from a range of Float values: facts read there,
// our own code. PyTorch's decomposed references use another rule (eps as the smallest scale,
// a rounded zero point), so the conformance programs of these operators are held to
// ExecuTorch's runtime's outputs.

#include <cmath>
#include <cstdint>

#include "runtime/core/tensor.h"

namespace quantized {

struct QParams {
  double scale;
  int64_t zero_point;
};

// Scales below this are raised to it, and the range stretched to match.
constexpr float kSmallestScale = 6.1e-5f;

// min and max of `count` floats at `data` (stride `step` elements): NaN is skipped, no
// values give [0, 0].
inline void float_range(const float* data, int64_t count, int64_t step, float* min, float* max) {
  float low = 0, high = 0;
  bool any = false;
  for (int64_t i = 0; i < count; ++i) {
    const float x = data[i * step];
    if (x != x) continue;
    if (!any || x < low) low = x;
    if (!any || x > high) high = x;
    any = true;
  }
  *min = low;
  *max = high;
}

// The range always holds 0; the zero point comes from whichever end loses less, nudged into
// [qmin, qmax] and rounded half to even.
inline QParams choose_qparams_for(float min, float max, int64_t qmin, int64_t qmax) {
  min = min < 0.f ? min : 0.f;
  max = max > 0.f ? max : 0.f;
  const double steps = static_cast<double>(qmax - qmin);
  double scale = (static_cast<double>(max) - min) / steps;
  if (static_cast<float>(scale) == 0.0f || std::isinf(1.0f / static_cast<float>(scale)))
    scale = 0.1;
  if (scale < kSmallestScale) {
    const float original = static_cast<float>(scale);
    scale = kSmallestScale;
    if (min == 0.0f) {
      max = kSmallestScale * static_cast<float>(steps);
    } else if (max == 0.0f) {
      min = -kSmallestScale * static_cast<float>(steps);
    } else {
      const float amplifier = kSmallestScale / original;
      min *= amplifier;
      max *= amplifier;
    }
  }
  const double low = static_cast<double>(qmin), high = static_cast<double>(qmax);
  const double from_min = low - min / scale, from_max = high - max / scale;
  const double min_error = std::abs(low) - std::abs(min / scale);
  const double max_error = std::abs(high) - std::abs(max / scale);
  const double initial = min_error < max_error ? from_min : from_max;
  int64_t zero_point;
  if (initial < low) {
    zero_point = qmin;
  } else if (initial > high) {
    zero_point = qmax;
  } else {
    zero_point = static_cast<int64_t>(std::nearbyint(static_cast<float>(initial)));
  }
  return QParams{scale, zero_point};
}

}  // namespace quantized
