#pragma once

#include <cstdint>

namespace optimized {

// Note [Blocked loops]
// Elementwise loops run in blocks of kBlock elements: each block loads its
// inputs into a small array, computes, then stores. With the trip count of
// the inner loops fixed, GCC vectorises them already at -O2 (its "very
// cheap" cost model refuses loops that would need a scalar epilogue or a
// runtime alias check), and since a block reads everything before it writes,
// out may be the same buffer as an input (the memory plan reuses buffers in
// place). The tail of fewer than kBlock elements runs one by one. The vector
// width comes from the toolchain's flags (SSE by default, AVX with -mavx2).
constexpr int64_t kBlock = 16;

// out[i] = f(x[i]) for i < n.
template <typename F>
inline void map1(float* out, const float* x, int64_t n, F f) {
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    float r[kBlock];
    for (int64_t k = 0; k < kBlock; ++k) r[k] = f(x[i + k]);
    for (int64_t k = 0; k < kBlock; ++k) out[i + k] = r[k];
  }
  for (; i < n; ++i) out[i] = f(x[i]);
}

// out[i] = f(a[i], b[i]) for i < n.
template <typename F>
inline void map2(float* out, const float* a, const float* b, int64_t n, F f) {
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    float r[kBlock];
    for (int64_t k = 0; k < kBlock; ++k) r[k] = f(a[i + k], b[i + k]);
    for (int64_t k = 0; k < kBlock; ++k) out[i + k] = r[k];
  }
  for (; i < n; ++i) out[i] = f(a[i], b[i]);
}

// out[i] = f(a[i], y) for i < n.
template <typename F>
inline void map2_scalar(float* out, const float* a, float y, int64_t n, F f) {
  map1(out, a, n, [f, y](float x) { return f(x, y); });
}

}  // namespace optimized
