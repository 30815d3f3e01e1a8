#pragma once

#include <cstdint>
#include <type_traits>

#include "runtime/core/value_cast.h"

namespace portable {

// The type arithmetic on T is done in: 16-bit floats compute in float and
// round once when stored, as torch does.
template <typename T>
using opmath_t = std::conditional_t<rt::is_reduced_float<T>::value, float, T>;

// Integer arithmetic wraps around like torch's (two's complement) without
// the undefined behaviour of signed overflow; bool arithmetic is logical.
template <typename M>
M op_add(M a, M b) {
  if constexpr (std::is_same<M, bool>::value) {
    return a || b;
  } else if constexpr (std::is_integral<M>::value) {
    return static_cast<M>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}

template <typename M>
M op_mul(M a, M b) {
  if constexpr (std::is_same<M, bool>::value) {
    return a && b;
  } else if constexpr (std::is_integral<M>::value) {
    return static_cast<M>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

}  // namespace portable
