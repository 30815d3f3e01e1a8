#pragma once

#include <algorithm>

#include "kernels/portable/util/unary_op.h"

// MobileNetV3's activations, in torch's order of operations: a division by 6, not a product
// with 1/6, which rounds differently. NaN stays NaN: std::max and std::min return their
// first argument when a comparison with NaN is false. Shared by the portable kernels and the
// optimized ones' strided path, so both compute the same bits.
namespace portable {

// hardsigmoid(x) = relu6(x + 3) / 6.
struct Hardsigmoid : UnaryStateless<Hardsigmoid> {
  template <typename M>
  static M apply(M x) {
    return std::min(std::max(x + M(3), M(0)), M(6)) / M(6);
  }
};

// hardswish(x) = x * relu6(x + 3) / 6.
struct Hardswish : UnaryStateless<Hardswish> {
  template <typename M>
  static M apply(M x) {
    return x * std::min(std::max(x + M(3), M(0)), M(6)) / M(6);
  }
};

}  // namespace portable
