#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE__)
#include <immintrin.h>
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace optimized {

// Note [Vector math]
// exp, tanh, sigmoid and GELU on a vector of floats at once, written with GCC's generic
// vectors (also Clang's): arithmetic, compares and selects, no calls, no
// branches. Plain float code with selects does not vectorise at -O2 under
// the default -ftrapping-math (GCC will not if-convert the compares), and
// libm's calls keep a loop scalar. A vector is one register of the target
// the toolchain's flags name: 8 floats with AVX, else 4 (SSE, NEON), or 16
// for VecWide with AVX-512, so no value is split over registers or passed in memory. Each function is
// within a few float ulps of the exact value (tanh near 0: absolute error
// below 2e-7; GELU: Note [GELU]), well inside the Float row of codegen/tolerances.py; NaN
// in gives NaN out.

#ifdef __AVX__
constexpr int64_t kLanes = 8;
#else
constexpr int64_t kLanes = 4;
#endif
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
typedef int32_t VecInt __attribute__((vector_size(kLanes * sizeof(int32_t))));

// The widest vector the toolchain's flags allow: one AVX-512 register (16 floats), else
// Vec. The streaming kernels (GELU, softmax) run on it: with AVX-512 half the instructions
// for the same work. The functions below are templates over the vector type and work lane
// by lane, so a lane's bits do not depend on the width.
#ifdef __AVX512F__
constexpr int64_t kWideLanes = 16;
#else
constexpr int64_t kWideLanes = kLanes;
#endif
typedef float VecWide __attribute__((vector_size(kWideLanes * sizeof(float))));

template <typename V>
constexpr int64_t lanes_of = static_cast<int64_t>(sizeof(V) / sizeof(float));

inline Vec splat(float value) { return Vec{} + value; }

template <typename V = Vec>
inline V load(const float* source) {
  V v;
  memcpy(&v, source, sizeof v);
  return v;
}

template <typename V>
inline void store(float* target, V v) {
  memcpy(target, &v, sizeof v);
}

// Up to lanes_of<V> elements (the tail of a row): the missing lanes are `fill`. With
// AVX-512 one masked load or store (a masked lane reads or writes no memory); else lane by
// lane, which for a row of a few vectors (softmax's 197 in ViT) costs as much as the row.
template <typename V = Vec>
inline V load_partial(const float* source, int64_t n, float fill) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) {
    const __mmask16 mask = static_cast<__mmask16>((1u << n) - 1);
    return (V)_mm512_mask_loadu_ps(_mm512_set1_ps(fill), mask, source);
  }
#endif
#if defined(__AVX512VL__)
  if constexpr (sizeof(V) == 32) {
    const __mmask8 mask = static_cast<__mmask8>((1u << n) - 1);
    return (V)_mm256_mask_loadu_ps(_mm256_set1_ps(fill), mask, source);
  }
#endif
  float lanes[lanes_of<V>];
  for (int64_t k = 0; k < lanes_of<V>; ++k) lanes[k] = k < n ? source[k] : fill;
  return load<V>(lanes);
}

template <typename V>
inline void store_partial(float* target, V v, int64_t n) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) {
    _mm512_mask_storeu_ps(target, static_cast<__mmask16>((1u << n) - 1), (__m512)v);
    return;
  }
#endif
#if defined(__AVX512VL__)
  if constexpr (sizeof(V) == 32) {
    _mm256_mask_storeu_ps(target, static_cast<__mmask8>((1u << n) - 1), (__m256)v);
    return;
  }
#endif
  float lanes[lanes_of<V>];
  store(lanes, v);
  for (int64_t k = 0; k < n; ++k) target[k] = lanes[k];
}

template <typename V>
inline V vmax(V a, V b) {
  return a > b ? a : b;
}

// The correctly rounded square root of each lane, as std::sqrt gives it (NaN below 0,
// -0 for -0): the instruction itself. std::sqrt in a loop stays scalar, a call per
// element, because of errno (-fmath-errno is the default).
inline Vec vsqrt(Vec x) {
#if defined(__AVX__)
  return _mm256_sqrt_ps(x);
#elif defined(__SSE__)
  return _mm_sqrt_ps(x);
#elif defined(__ARM_NEON) && defined(__aarch64__)
  float32x4_t lanes;
  memcpy(&lanes, &x, sizeof lanes);
  lanes = vsqrtq_f32(lanes);
  memcpy(&x, &lanes, sizeof x);
  return x;
#else
  for (int64_t k = 0; k < kLanes; ++k) x[k] = __builtin_sqrtf(x[k]);
  return x;
#endif
}
template <typename V>
inline V vabs(V x) {
  return x < 0.0f ? -x : x;
}

// The integer vector of V's width (the exponent's bits of exp_approx).
template <typename V>
struct IntLanes {
  typedef int32_t type __attribute__((vector_size(sizeof(V))));
};

// e^x: x = n ln2 + r with |r| <= ln2 / 2, e^r by its Taylor series to r^7
// (truncation below 1e-8 relative), 2^n put into the exponent bits. n is
// rounded by adding 1.5 * 2^23, which leaves n in the low mantissa bits.
// A template over the vector type: the GEMM's store (opt::sgemm, 16 lanes with
// AVX-512) computes the same lanes with the same operations, so each lane's bits
// are those of an 8-lane Vec (Note [Fused epilogue]).
template <typename V>
inline V exp_approx(V x) {
  using VI = typename IntLanes<V>::type;
  constexpr float kHigh = 88.37f;  // n stays <= 127: 2^n a normal float
  constexpr float kLow = -87.33f;  // n stays >= -126
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2High = 0.693145751953125f;  // ln 2 split so n * kLn2High is exact
  constexpr float kLn2Low = 1.428606765330187e-06f;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23
  const V zero{};
  V clamped = x > kHigh ? zero + kHigh : x;
  clamped = clamped < kLow ? zero + kLow : clamped;
  const V shifted = clamped * kLog2e + kRound;
  const V n = shifted - kRound;
  const VI exponent = (VI)shifted - 0x4B400000;  // minus kRound's bits
  const V r = (clamped - n * kLn2High) - n * kLn2Low;
  V p = zero + 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const VI scale_bits = (exponent + 127) << 23;
  const V scaled = p * (V)scale_bits;
  // Past the clamps the exact result is beyond float's normal range.
  const V result = x > kHigh ? zero + __builtin_inff() : scaled;
  return x < kLow ? zero : result;
}

// Note [Sigmoid]
// sigmoid(x) = 1 / (1 + e^-x), the hot half of EfficientNet's SiLU, so it is shorter than
// exp_approx: sigmoid(-|x|) = e / (1 + e) with e = e^-|x| in (0, 1], and sigmoid(x) =
// 1 - sigmoid(-x) for x > 0. e needs no clamps (its arguments are <= 0; below ln 2^-126,
// where 2^n would be subnormal, it is 0, the exact value being under 1.2e-38); e^r is a
// degree-5 polynomial fitted for least relative error on [-ln2/2, ln2/2] (7.1e-8), three
// steps fewer on the chain than exp_approx's degree 7. (The division stays: with the
// sigmoids of a tile in flight at once, AVX-512's reciprocal estimate and a Newton step
// measured no faster than vdivps on Zen 4.) Measured against 1 / (1 + exp(-x)) in double,
// over 2^24 arguments evenly in [-90, 90]: at most 3.7 float ulps with FMA (AVX-512, AVX2,
// NEON; GCC and Clang), 3.8 without (SSE2); x * sigmoid(x) 4.4 and 4.6 (exp_approx's form
// gave 2.5 and 2.8); under 1.2e-38 absolute where the result is not a normal float; NaN
// gives NaN, +inf 1, -inf 0 (test_op_sigmoid.py holds every level to 4 ulps). Every
// sigmoid of the library (op_sigmoid, the fused epilogue's sigmoid and SiLU) is this
// function, at any vector width: the same operations lane by lane, so the same bits.

// e^z for z <= 0 (or NaN): Note [Sigmoid].
template <typename V>
inline V exp_nonpositive(V z) {
  constexpr float kLow = -87.33654f;  // ln 2^-126: n stays >= -126, 2^n a normal float
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2High = 0.693145751953125f;  // ln 2 split so n * kLn2High is exact
  constexpr float kLn2Low = 1.428606765330187e-06f;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: n in the low mantissa bits
  const V zero{};
  const V shifted = z * kLog2e + kRound;
  const V n = shifted - kRound;
  const V r = (z - n * kLn2High) - n * kLn2Low;
  V p = zero + 0.008318288f;
  p = p * r + 0.04189809f;
  p = p * r + 0.16667008f;
  p = p * r + 0.49999145f;
  p = p * r + 1.0f;
  // 2^n: n + 127 in the exponent bits (kRound's own bits shift out past bit 31). Unsigned
  // lanes: the shift drops high bits by definition.
  typedef uint32_t VU __attribute__((vector_size(sizeof(V))));
  const V scale = (V)(((VU)shifted + 127u) << 23);
  const V scaled_r = r * scale;
  const V e = scaled_r * p + scale;  // 2^n (1 + r p)
  return z < kLow ? zero : e;
}

// 1 / (1 + e^-x): Note [Sigmoid].
template <typename V>
inline V sigmoid_approx(V x) {
  typedef uint32_t VU __attribute__((vector_size(sizeof(V))));
  const V minus_abs = (V)((VU)x | 0x80000000u);
  const V e = exp_nonpositive(minus_abs);
  const V low = e / (e + 1.0f);  // sigmoid(-|x|)
  return x > 0.0f ? 1.0f - low : low;
}

// tanh: an odd Taylor polynomial near 0 (where 1 - 2 / (e^2x + 1) would
// cancel), that expression beyond 0.4.
template <typename V>
inline V tanh_approx(V x) {
  const V a = vabs(x);
  const V x2 = x * x;
  V p = V{} + 62.0f / 2835.0f;
  p = p * x2 - 17.0f / 315.0f;
  p = p * x2 + 2.0f / 15.0f;
  p = p * x2 - 1.0f / 3.0f;
  const V small = x + x * x2 * p;
  const V large = 1.0f - 2.0f / (exp_approx(2.0f * a) + 1.0f);
  const V signed_large = x < 0.0f ? -large : large;
  return a < 0.4f ? small : signed_large;
}

// Note [GELU]
// gelu(x) = x Phi(x) = x (1/2 + erf(x / sqrt 2) / 2), the activation of ViT's, BERT's and
// the transformer's MLPs. erf(z) is odd, z R(z^2) with R even, and R is a rational function
// of t = x^2 of degree 5 over 5, fitted (linearised least squares, then Lawson's weights
// towards minimax) for least relative error of erf(z) / z on |z| <= 3.92; its 1/(2 sqrt 2)
// and the 1/2 of z^2 = x^2 / 2 are folded into the coefficients, so gelu(x) = x (x P(t) /
// Q(t) + 1/2): 12 multiply-adds and one division, the two polynomials in flight together.
// Abramowitz and Stegun's form it replaces took a division and a whole exp_approx (27 more
// operations on the chain). Beyond |x| = 3.92 sqrt 2 erf is 1 within 5.3e-8: gelu(x) is x
// above, and x * 0 below (-0, or NaN for -inf, as portable's 0.5 x (1 + erf) gives).
// Measured against 0.5 x (1 + erf(x / sqrt 2)) in double over 2^24 arguments evenly in
// [-10, 10]: at most 9.6e-7 absolute (at x = 4.94: 2e-7 relative) and 4.5 float ulps
// (4.2e-7 relative) for x >= -1 with FMA (AVX-512, AVX2); 1.6e-6 and 5.6 ulps without
// (SSE2). Below -1 the error is absolute, as in any x (1/2 + erf / 2) form: Phi(x) is a
// small difference there (the old form gave 4.7e-7). The Float tolerance is 1e-5 absolute
// of the output's scale plus 1e-4 relative; test_op_gelu.py holds every level to 1.6e-6
// and 6e-7. 2.7x faster than the old form (Zen 4, AVX-512: 0.33 ns an element against
// 0.92; benchmarks/RESULTS.md).
template <typename V>
inline V gelu_erf(V x) {
  constexpr float kLimit = 5.5437171f;  // 3.92 sqrt 2
  const V t = x * x;
  V p = V{} + 2.265045892e-08f;
  p = p * t + 6.295094228e-06f;
  p = p * t + 1.664193754e-04f;
  p = p * t + 4.662378907e-03f;
  p = p * t + 3.365951888e-02f;
  p = p * t + 3.989422730e-01f;
  V q = V{} + 1.190366710e-06f;
  q = q * t + 7.265885084e-05f;
  q = q * t + 1.871157934e-03f;
  q = q * t + 2.852733301e-02f;
  q = q * t + 2.510382721e-01f;
  q = q * t + 1.0f;
  const V g = x * (x * (p / q) + 0.5f);
  const V high = x > kLimit ? x : g;
  return x < -kLimit ? x * 0.0f : high;
}

// out[i] = f(x[i]) for i < n, f: V -> V. Two vectors in flight: one function's chain
// of dependent operations is long (gelu_erf, exp_approx), two interleave.
template <typename V = Vec, typename F>
inline void map_vec(float* out, const float* x, int64_t n, F f) {
  constexpr int64_t kStep = lanes_of<V>;
  int64_t i = 0;
  for (; i + 2 * kStep <= n; i += 2 * kStep) {
    const V a = f(load<V>(x + i));
    const V b = f(load<V>(x + i + kStep));
    store(out + i, a);
    store(out + i + kStep, b);
  }
  for (; i + kStep <= n; i += kStep) store(out + i, f(load<V>(x + i)));
  if (i < n) store_partial(out + i, f(load_partial<V>(x + i, n - i, 0.0f)), n - i);
}

}  // namespace optimized
