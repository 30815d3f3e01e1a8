#pragma once

// The per-tensor quantize and dequantize loops, four values at a time with the compiler's
// vector extensions (SSE2 on x86-64's baseline, NEON on aarch64: the quantized library is
// compiled at -Os for the baseline) where the dtypes are the common ones (Float and Char or
// Byte), one value at a time otherwise. Both give the bits of quantize_value and
// dequantize_value (Note [Quantized rounding]): the same operations in the same order.
//
// Note [Rounding without nearbyint]
// nearbyint(v), halves to even, is (v + 1.5 * 2^23) - 1.5 * 2^23 in float arithmetic for
// |v| < 2^22: the sum's ulp is 1, so the addition itself rounds v to an integer, to even
// on a tie (the default rounding mode, which nearbyint uses too), and the subtraction is
// exact. Larger |v| only matter through the clamp, which they pass the same way; infinity
// stays infinite and NaN stays NaN (then quant_min).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/quantized/quant_util.h"

namespace quantized {

typedef float Floats4 __attribute__((vector_size(16)));
typedef int32_t Ints4 __attribute__((vector_size(16)));

// Note [No contraction]
// C++ lets the compiler contract a * b + c into one fused multiply-add (GCC does so in
// C++ whatever -std says, where the target has FMA), which rounds once where the scalar
// code, with a call or a conversion between the two, rounds twice. A value passed through
// rounded() is opaque to the optimizer, so the product is rounded before the addition.
// keep_rounded takes the vector by reference: a vector wider than the target's registers
// passed by value would change the call ABI. It stays in a register where one holds it (the
// widths the target's vector registers have), else in memory.
template <typename V>
inline void keep_rounded(V& v) {
#if defined(__AVX512F__)
  __asm__("" : "+v"(v));
#elif defined(__AVX__)
  __asm__("" : "+x"(v));
#elif defined(__x86_64__) || defined(__i386__)
  if constexpr (sizeof(V) <= 16) {
    __asm__("" : "+x"(v));
  } else {
    __asm__("" : "+m"(v));
  }
#elif defined(__aarch64__) || defined(__arm__)
  if constexpr (sizeof(V) <= 16) {
    __asm__("" : "+w"(v));
  } else {
    __asm__("" : "+m"(v));
  }
#else
  __asm__("" : "+m"(v));
#endif
}

template <typename V>
inline V rounded(V v) {
  keep_rounded(v);
  return v;
}

inline Floats4 load4(const float* p) {
  Floats4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// out[i] = quantize_value<Q>(x[i], ...) for i < n.
template <typename Q>
void quantize_floats(const float* x, int64_t n, Q* out, float inv_scale, int32_t zero_point,
                     int64_t quant_min, int64_t quant_max) {
  int64_t i = 0;
  if constexpr (sizeof(Q) == 1) {
    constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: Note [Rounding without nearbyint]
    const Floats4 scale = Floats4{} + inv_scale, zp = Floats4{} + static_cast<float>(zero_point);
    const Floats4 low = Floats4{} + static_cast<float>(quant_min);
    const Floats4 high = Floats4{} + static_cast<float>(quant_max);
    for (; i + 4 <= n; i += 4) {
      const Floats4 v = rounded(load4(x + i) * scale);  // Note [No contraction]
      Floats4 q = zp + ((v + kRound) - kRound);
      q = q >= low ? q : low;  // NaN fails the comparison: quant_min
      q = q > high ? high : q;
      // In range now: narrowing keeps the value.
      typedef Q Bytes4 __attribute__((vector_size(4)));
      const Bytes4 bytes = __builtin_convertvector(__builtin_convertvector(q, Ints4), Bytes4);
      std::memcpy(out + i, &bytes, sizeof bytes);
    }
  }
  for (; i < n; ++i) out[i] = quantize_value<Q>(x[i], inv_scale, zero_point, quant_min, quant_max);
}

// out[i] = dequantize_value<float>(q[i], ...) for i < n.
template <typename Q>
void dequantize_to_floats(const Q* q, int64_t n, float* out, int64_t zero_point, float scale) {
  int64_t i = 0;
  if constexpr (sizeof(Q) == 1) {
    // (q - zero_point) is exact in float for an 8-bit q and a zero point in its range.
    const bool exact = zero_point >= -512 && zero_point <= 512;
    const Floats4 zp = Floats4{} + static_cast<float>(zero_point), factor = Floats4{} + scale;
    typedef Q Bytes4 __attribute__((vector_size(4)));
    for (; exact && i + 4 <= n; i += 4) {
      Bytes4 bytes;
      std::memcpy(&bytes, q + i, sizeof bytes);
      const Ints4 whole = __builtin_convertvector(bytes, Ints4);
      const Floats4 v = (__builtin_convertvector(whole, Floats4) - zp) * factor;
      std::memcpy(out + i, &v, sizeof v);
    }
  }
  for (; i < n; ++i) out[i] = dequantize_value<float>(q[i], zero_point, scale);
}

}  // namespace quantized
