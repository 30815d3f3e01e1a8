#pragma once

// The per-tensor quantize and dequantize loops, four values at a time with the compiler's
// vector extensions (SSE2 on x86-64's baseline, NEON on aarch64: the quantized library is
// compiled at -Os for the baseline) where the dtypes are the common ones (Float and Char or
// Byte), one value at a time otherwise. Both give the bits of quantize_value and
// dequantize_value (Note [Quantized rounding]): the same operations in the same order.
//
// Note [Wide quantized loops]
// The same loops run kLanes values at a time where the optimized library compiles them for
// its instruction set (kWideLanes: 16 with AVX-512, 8 with AVX2): the calls of Note
// [Quantized calls at load] that are the quantized library's loops (the int8 residual add,
// a quantize of Float values, a dequantize into Float values; kernels/quantized/add_call.h).
// Each lane does the same operations in the same order, so any width gives the same bits.
// The widths are distinct template arguments: the baseline library's 4-lane instances and
// the optimized library's wider ones are different functions (at the baseline both are 4
// lanes for the same instruction set).
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

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace quantized {

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

// The vectors of kLanes values (GCC drops a vector_size that depends on a template's
// argument: one concrete set per width).
template <int kLanes>
struct Lanes;
#define QUANT_LOOPS_LANES(N)                                                                \
  template <>                                                                               \
  struct Lanes<N> {                                                                         \
    typedef float Floats __attribute__((vector_size(4 * N)));                               \
    typedef int32_t Ints __attribute__((vector_size(4 * N)));                               \
    typedef int8_t SignedBytes __attribute__((vector_size(N)));                             \
    typedef uint8_t UnsignedBytes __attribute__((vector_size(N)));                          \
    template <typename Q>                                                                   \
    using Bytes = std::conditional_t<std::is_signed<Q>::value, SignedBytes, UnsignedBytes>; \
  };
QUANT_LOOPS_LANES(4)
QUANT_LOOPS_LANES(8)
QUANT_LOOPS_LANES(16)
#undef QUANT_LOOPS_LANES

// kLanes 8-bit values from `from`, widened to int32 lanes (GCC 12 widens a vector of 16
// bytes one byte at a time through the scalar registers: the instruction where there is one).
template <typename Q, int kLanes>
inline void widen_bytes(const Q* from, typename Lanes<kLanes>::Ints& to) {
  constexpr bool kSigned = std::is_signed<Q>::value;
#if defined(__AVX512F__)
  if constexpr (kLanes == 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
    const __m512i ints = kSigned ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
    std::memcpy(&to, &ints, sizeof to);
    return;
  }
#endif
#if defined(__AVX2__)
  if constexpr (kLanes == 8) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from));
    const __m256i ints = kSigned ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
    std::memcpy(&to, &ints, sizeof to);
    return;
  }
#endif
  typename Lanes<kLanes>::template Bytes<Q> bytes;
  std::memcpy(&bytes, from, sizeof bytes);
  to = __builtin_convertvector(bytes, typename Lanes<kLanes>::Ints);
}

// out[i] = quantize_value<Q>(x[i], ...) for i < n, kLanes values at a time (Note [Wide
// quantized loops]).
template <typename Q, int kLanes = 4>
void quantize_floats(const float* x, int64_t n, Q* out, float inv_scale, int32_t zero_point,
                     int64_t quant_min, int64_t quant_max) {
  int64_t i = 0;
  if constexpr (sizeof(Q) == 1) {
    using Floats = typename Lanes<kLanes>::Floats;
    using Ints = typename Lanes<kLanes>::Ints;
    using Bytes = typename Lanes<kLanes>::template Bytes<Q>;
    constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: Note [Rounding without nearbyint]
    const Floats scale = Floats{} + inv_scale, zp = Floats{} + static_cast<float>(zero_point);
    const Floats low = Floats{} + static_cast<float>(quant_min);
    const Floats high = Floats{} + static_cast<float>(quant_max);
    for (; i + kLanes <= n; i += kLanes) {
      Floats v;
      std::memcpy(&v, x + i, sizeof v);
      v *= scale;
      keep_rounded(v);  // Note [No contraction]
      Floats q = zp + ((v + kRound) - kRound);
      q = q >= low ? q : low;  // NaN fails the comparison: quant_min
      q = q > high ? high : q;
      // In range now: narrowing keeps the value.
      const Bytes bytes = __builtin_convertvector(__builtin_convertvector(q, Ints), Bytes);
      std::memcpy(out + i, &bytes, sizeof bytes);
    }
  }
  for (; i < n; ++i) out[i] = quantize_value<Q>(x[i], inv_scale, zero_point, quant_min, quant_max);
}

// out[i] = dequantize_value<float>(q[i], ...) for i < n, kLanes values at a time (Note
// [Wide quantized loops]).
template <typename Q, int kLanes = 4>
void dequantize_to_floats(const Q* q, int64_t n, float* out, int64_t zero_point, float scale) {
  int64_t i = 0;
  if constexpr (sizeof(Q) == 1) {
    using Floats = typename Lanes<kLanes>::Floats;
    using Ints = typename Lanes<kLanes>::Ints;
    // (q - zero_point) is exact in float for an 8-bit q and a zero point in its range.
    const bool exact = zero_point >= -512 && zero_point <= 512;
    const Floats zp = Floats{} + static_cast<float>(zero_point), factor = Floats{} + scale;
    for (; exact && i + kLanes <= n; i += kLanes) {
      Ints whole;
      widen_bytes<Q, kLanes>(q + i, whole);
      const Floats v = (__builtin_convertvector(whole, Floats) - zp) * factor;
      std::memcpy(out + i, &v, sizeof v);
    }
  }
  for (; i < n; ++i) out[i] = dequantize_value<float>(q[i], zero_point, scale);
}

#if defined(__AVX512F__)
constexpr int kWideLanes = 16;
#elif defined(__AVX2__)
constexpr int kWideLanes = 8;
#else
constexpr int kWideLanes = 4;
#endif

}  // namespace quantized
