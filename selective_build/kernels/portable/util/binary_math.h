#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/opmath.h"

namespace portable {

// Elementwise arithmetic of the binary ops on opmath values, with torch's
// meaning: integers wrap around (two's complement) instead of overflowing
// into undefined behaviour, floating point follows IEEE (NaN and inf
// propagate). Integer divisions never see a zero divisor (the kernels reject
// it first, as torch does) but return 0 rather than trap if one slips by.

template <typename M>
constexpr bool kIsFloat = std::is_floating_point<M>::value;

template <typename M>
M op_sub(M a, M b) {
  if constexpr (std::is_integral<M>::value) {
    return static_cast<M>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  } else {
    return a - b;
  }
}

// a / b rounded toward zero; the most negative integer / -1 wraps to itself.
template <typename M>
M op_div_trunc(M a, M b) {
  if constexpr (kIsFloat<M>) {
    return std::trunc(a / b);
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed<M>::value) {
      if (b == M(-1)) return op_sub(M(0), a);
    }
    return static_cast<M>(a / b);
  }
}

// Python's a % b: the sign of the divisor.
template <typename M>
M op_remainder(M a, M b) {
  if constexpr (kIsFloat<M>) {
    M mod = std::fmod(a, b);
    if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
    return mod;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed<M>::value) {
      if (b == M(-1)) return 0;
    }
    M mod = static_cast<M>(a % b);
    if (mod != 0 && ((b < 0) != (mod < 0))) mod = static_cast<M>(mod + b);
    return mod;
  }
}

// C's fmod: the sign of the dividend.
template <typename M>
M op_fmod(M a, M b) {
  if constexpr (kIsFloat<M>) {
    return std::fmod(a, b);
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed<M>::value) {
      if (b == M(-1)) return 0;
    }
    return static_cast<M>(a % b);
  }
}

// Python's a // b (torch's rounding_mode='floor'), for floats the way
// Python computes it so that it agrees with op_remainder.
template <typename M>
M op_div_floor(M a, M b) {
  if constexpr (kIsFloat<M>) {
    if (b == 0) return a / b;
    const M mod = std::fmod(a, b);
    M div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= M(1);
    if (div == 0) return std::copysign(M(0), a / b);
    M floored = std::floor(div);
    if (div - floored > M(0.5)) floored += M(1);
    return floored;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed<M>::value) {
      if (b == M(-1)) return op_sub(M(0), a);
    }
    M quotient = static_cast<M>(a / b);
    if (a % b != 0 && ((a < 0) != (b < 0))) --quotient;
    return quotient;
  }
}

// base ** exp. Integers square and multiply (wrapping); a negative integer
// exponent gives 1 for base 1, +-1 for base -1 and 0 otherwise (torch's
// tensor-tensor rule). Bool: x ** false is true, x ** true is x.
template <typename M>
M op_pow(M base, M exp) {
  if constexpr (std::is_same<M, bool>::value) {
    return base || !exp;
  } else if constexpr (std::is_integral<M>::value) {
    if constexpr (std::is_signed<M>::value) {
      if (exp < 0) {
        if (base == 1) return 1;
        if (base == M(-1)) return (exp & 1) != 0 ? M(-1) : M(1);
        return 0;
      }
    }
    M result = 1;
    for (uint64_t e = static_cast<uint64_t>(exp); e != 0; e >>= 1) {
      if ((e & 1u) != 0) result = op_mul(result, base);
      base = op_mul(base, base);
    }
    return result;
  } else {
    return std::pow(base, exp);
  }
}

// NaN-propagating max and min (torch.maximum, torch.minimum).
template <typename M>
M op_maximum(M a, M b) {
  if constexpr (kIsFloat<M>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a < b ? b : a;
}

template <typename M>
M op_minimum(M a, M b) {
  if constexpr (kIsFloat<M>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return b < a ? b : a;
}

}  // namespace portable
