#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "runtime/core/value_cast.h"

namespace portable {

// Note [Random kernels]
// rand, randn and native_dropout draw from one generator per process (every
// kernel library object shares this inline function's state), seeded with a
// fixed number when the process starts. So a runner gives the same values on
// every run of the same calls, and each call continues where the last one
// stopped: two rand calls in one method differ, a second --iterations run
// differs from the first. ExecuTorch's portable kernels seed each call from
// std::random_device instead; neither reproduces PyTorch's values, so tests
// judge these kernels by the distribution (tests/conformance "compare").
// The generator is splitmix64 (Steele, Lea and Flood 2014): 64-bit state,
// one multiply-xorshift mix per value; ample for test data and dropout.
inline uint64_t& random_state() {
  static uint64_t state = 0x5eed5eed5eed5eedull;
  return state;
}

inline uint64_t random_bits() {
  uint64_t z = (random_state() += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The number of significand bits of T (its precision with the implicit bit).
template <typename T>
constexpr int random_digits() {
  if constexpr (std::is_same<T, rt::Half>::value) {
    return 11;
  } else if constexpr (std::is_same<T, rt::BFloat16>::value) {
    return 8;
  } else if constexpr (std::is_same<T, float>::value) {
    return 24;
  } else {
    return 53;
  }
}

// Uniform in [0, 1) on T's grid (k / 2^digits), so rounding to T can never
// give 1, as torch.rand draws.
template <typename T>
T random_uniform() {
  constexpr int kDigits = random_digits<T>();
  const uint64_t k = random_bits() >> (64 - kDigits);
  return rt::value_cast<T>(static_cast<double>(k) *
                           (1.0 / static_cast<double>(uint64_t{1} << kDigits)));
}

// Standard normal by Box-Muller, in double (u1 in (0, 1], so the log is finite).
inline double random_normal() {
  const double u1 = 1.0 - random_uniform<double>();
  const double u2 = random_uniform<double>();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace portable
