#pragma once

#include <cstdint>
#include <cstring>

namespace rt {

namespace detail {

inline uint32_t float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float float_from_bits(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

// IEEE binary32 -> binary16, round to nearest even (what torch and numpy do).
inline uint16_t float_to_half_bits(float value) {
  const uint32_t bits = float_bits(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // inf stays inf; NaN stays a quiet NaN
    return sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u);
  }
  const int exponent = static_cast<int>(magnitude >> 23) - 127 + 15;
  uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;  // implicit one
  // A normal half keeps 10 of the 23 fraction bits; a subnormal one loses
  // one more bit per step below the smallest normal exponent.
  int shift = 13;
  uint32_t biased = static_cast<uint32_t>(exponent) << 10;
  if (exponent <= 0) {
    shift = 14 - exponent;
    biased = 0;
    if (shift > 24) return sign;  // below half of the smallest subnormal
  } else if (exponent >= 31) {
    return sign | 0x7c00u;
  } else {
    mantissa &= 0x7fffffu;
  }
  const uint32_t remainder = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  uint32_t result = biased + (mantissa >> shift);
  // A carry out of the fraction correctly bumps the exponent (up to inf).
  if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);
}

inline float half_bits_to_float(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  const uint32_t fraction = half & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: fraction * 2^-24 is exact in float
    const float magnitude = static_cast<float>(fraction) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return float_from_bits(sign | 0x7f800000u | (fraction << 13));
  return float_from_bits(sign | ((exponent + 112) << 23) | (fraction << 13));
}

inline uint16_t float_to_bfloat16_bits(float value) {
  const uint32_t bits = float_bits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);  // ties to even
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

}  // namespace detail

// Storage-only 16-bit floats: arithmetic goes through float (see
// kernels/portable/util/opmath.h), which is also how torch computes them.
struct Half {
  uint16_t bits;

  Half() = default;
  explicit Half(float value) : bits(detail::float_to_half_bits(value)) {}
  operator float() const { return detail::half_bits_to_float(bits); }
};

struct BFloat16 {
  uint16_t bits;

  BFloat16() = default;
  explicit BFloat16(float value) : bits(detail::float_to_bfloat16_bits(value)) {}
  operator float() const { return detail::float_from_bits(static_cast<uint32_t>(bits) << 16); }
};

}  // namespace rt
