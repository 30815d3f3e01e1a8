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
// exp, tanh, sigmoid and erf on a vector of floats at once, written with GCC's generic
// vectors (also Clang's): arithmetic, compares and selects, no calls, no
// branches. Plain float code with selects does not vectorise at -O2 under
// the default -ftrapping-math (GCC will not if-convert the compares), and
// libm's calls keep a loop scalar. A vector is one register of the target
// the toolchain's flags name: 8 floats with AVX, else 4 (SSE, NEON), so no
// value is split over registers or passed in memory. Each function is
// within a few float ulps of the exact value (tanh near 0 and erf: absolute
// error below 2e-7), well inside the Float row of codegen/tolerances.py; NaN
// in gives NaN out.

#ifdef __AVX__
constexpr int64_t kLanes = 8;
#else
constexpr int64_t kLanes = 4;
#endif
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
typedef int32_t VecInt __attribute__((vector_size(kLanes * sizeof(int32_t))));

inline Vec splat(float value) { return Vec{} + value; }

inline Vec load(const float* source) {
  Vec v;
  memcpy(&v, source, sizeof v);
  return v;
}

inline void store(float* target, Vec v) { memcpy(target, &v, sizeof v); }

// Up to kLanes elements (the tail of a row): the missing lanes are `fill`.
inline Vec load_partial(const float* source, int64_t n, float fill) {
  float lanes[kLanes];
  for (int64_t k = 0; k < kLanes; ++k) lanes[k] = k < n ? source[k] : fill;
  return load(lanes);
}

inline void store_partial(float* target, Vec v, int64_t n) {
  float lanes[kLanes];
  store(lanes, v);
  for (int64_t k = 0; k < n; ++k) target[k] = lanes[k];
}

inline Vec vmax(Vec a, Vec b) { return a > b ? a : b; }

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
inline Vec vabs(Vec x) { return x < 0.0f ? -x : x; }

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
inline Vec tanh_approx(Vec x) {
  const Vec a = vabs(x);
  const Vec x2 = x * x;
  Vec p = splat(62.0f / 2835.0f);
  p = p * x2 - 17.0f / 315.0f;
  p = p * x2 + 2.0f / 15.0f;
  p = p * x2 - 1.0f / 3.0f;
  const Vec small = x + x * x2 * p;
  const Vec large = 1.0f - 2.0f / (exp_approx(2.0f * a) + 1.0f);
  const Vec signed_large = x < 0.0f ? -large : large;
  return a < 0.4f ? small : signed_large;
}

// erf by Abramowitz and Stegun's 7.1.26 (absolute error below 1.5e-7), odd.
inline Vec erf_approx(Vec x) {
  const Vec a = vabs(x);
  const Vec t = 1.0f / (1.0f + 0.3275911f * a);
  Vec p = splat(1.061405429f);
  p = p * t - 1.453152027f;
  p = p * t + 1.421413741f;
  p = p * t - 0.284496736f;
  p = p * t + 0.254829592f;
  const Vec y = 1.0f - p * t * exp_approx(-a * a);
  return x < 0.0f ? -y : y;
}

// out[i] = f(x[i]) for i < n, f: Vec -> Vec.
template <typename F>
inline void map_vec(float* out, const float* x, int64_t n, F f) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(out + i, f(load(x + i)));
  if (i < n) store_partial(out + i, f(load_partial(x + i, n - i, 0.0f)), n - i);
}

}  // namespace optimized
