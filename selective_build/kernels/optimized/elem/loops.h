#pragma once

#include <cstdint>

#include "kernels/optimized/parallel.h"

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

// Note [Split elementwise]
// A large elementwise call is split over the pool's threads (Note [Threads]) in items of
// at least kSplitElements elements (about ten microseconds of a memory-bound loop, so a
// small tensor stays on one thread); items start on multiples of kSplitAlign elements, a
// multiple of every vector loop's block, so each element is computed by the same code
// (block or tail) as in one unsplit loop: the same bits for any thread count. Disjoint
// ranges keep in-place calls (out the same buffer as an input) safe.
constexpr int64_t kSplitElements = int64_t{1} << 14;
constexpr int64_t kSplitAlign = 64;

// f(begin, end) over ranges that cover [0, n), on the pool's threads.
template <typename F>
inline void split_elements(int64_t n, F f) {
  const int64_t pieces = (n + kSplitAlign - 1) / kSplitAlign;
  opt::parallel_for(pieces, kSplitElements / kSplitAlign, [&](int64_t first, int64_t last) {
    f(first * kSplitAlign, last * kSplitAlign < n ? last * kSplitAlign : n);
  });
}

// f(first, last) over ranges of [0, rows) rows `width` long, on the pool's threads when the
// rows hold kSplitElements elements per item (Note [Split elementwise]; whole rows, so
// each row's loop is the unsplit one).
template <typename F>
inline void split_rows(int64_t rows, int64_t width, F f) {
  const int64_t grain = width >= kSplitElements ? 1 : kSplitElements / (width > 0 ? width : 1);
  opt::parallel_for(rows, grain, f);
}

}  // namespace optimized
