#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/sgemm_kernel.h"
#include "kernels/optimized/window.h"
#include "runtime/kernel/epilogue.h"

// Note [Direct depthwise]
// The depthwise layers of MobileNetV2 and EfficientNet-B0 (square 3x3 or 5x5 kernels, stride
// 1 or 2, no dilation, any padding) run straight over the input plane, with no copy of it:
// - Outputs are computed kLanes columns (one vector of the GEMM microkernel's width) by
//   kBlockRows rows at a time, each row's accumulator in a register. Each input row under
//   the block is loaded once per chunk of columns: its K taps (one unaligned load each, or
//   at stride 2 the even lanes of two) feed every output row of the block that uses it, so
//   a 3x3 stride-1 layer loads each input vector about once instead of three times. The
//   last block of a plane overlaps the one before (rows computed twice, to the same bits).
// - A chunk whose loads lie inside the input row loads from the row itself. One that would
//   read past either end of a row (the left and right borders, rows narrower than a vector)
//   loads through lane masks computed once per chunk: lanes outside the row read as zeros,
//   and nothing outside the tensor is read. Input rows above or below the plane are zeros.
//   So padding taps multiply zeros, as im2col's do, and there is no bounds test per tap.
//   With AVX-512 every chunk loads through masks (a masked load costs what a load does, and
//   one copy of the code serves all chunks: the library stays 15 KB smaller).
// - The bias starts each accumulator; each tap is one fused multiply-add in the order of
//   (ky, kx), whatever the block, chunk or thread: a plane's bits depend on the layer alone.
// - The fused epilogue (Note [Fused epilogue]): relu and clamp in registers before the
//   store, as the GEMM's store computes them; hardswish, sigmoid and SiLU, with the vector
//   code of their own kernels (kernels/optimized/epilogue.h), over each plane once it is
//   stored (Note [Activation after the store]).
// Other depthwise shapes (dilation, stride 3, kernels not square, planes of fewer output
// rows than a block) keep the padded phases of Note [Padded depthwise] (conv_depthwise.h).
// Narrow planes, whose rows fill few of a vector's lanes, take Note [Depthwise channels as
// lanes] (conv_depthwise_lanes.h) with AVX-512: the same chain per output, so the same bits.
namespace optimized {
namespace conv {

namespace direct {

using opt::sgemm::kLanes;
using opt::sgemm::Vec;
constexpr int kBlockRows = 4;

inline Vec splat(float x) { return opt::sgemm::splat(x); }

template <size_t... I>
inline Vec evens(Vec a, Vec b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, (2 * I)...);
}

// Which lanes j of a load of row[start + j] lie in [0, width): the others read as zeros, and
// nothing outside the row is read (a masked load where the instruction set has one). The
// same for every row of a plane, so a chunk computes its masks once.
#if defined(__AVX512F__)
using Mask = __mmask16;
#elif defined(__AVX2__) && defined(__FMA__)
using Mask = __m256i;
#else
struct Mask {
  int64_t lo, hi;
};
#endif

inline Mask window_mask(int64_t start, int64_t width) {
  int64_t lo, hi;  // lo <= hi <= kLanes
  opt::valid_outputs(start, 1, width, kLanes, &lo, &hi);
#if defined(__AVX512F__)
  return static_cast<__mmask16>(((1u << hi) - 1) & ~((1u << lo) - 1));
#elif defined(__AVX2__) && defined(__FMA__)
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_and_si256(_mm256_cmpgt_epi32(lane, _mm256_set1_epi32(static_cast<int>(lo) - 1)),
                          _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(hi)), lane));
#else
  return Mask{lo, hi};
#endif
}

inline Vec load_masked(const float* row, int64_t start, const Mask& mask) {
  // The address of lane 0, which may lie outside the row (never read).
  const float* at = reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(row) +
                                                   static_cast<uintptr_t>(start * 4));
#if defined(__AVX512F__)
  return _mm512_maskz_loadu_ps(mask, at);
#elif defined(__AVX2__) && defined(__FMA__)
  return _mm256_maskload_ps(at, mask);
#else
  alignas(64) float lanes[kLanes] = {};
  for (int64_t j = mask.lo; j < mask.hi; ++j) lanes[j] = at[j];
  return opt::sgemm::load(lanes);
#endif
}

// dst[0, n) = the first n lanes of v (n <= kLanes).
inline void store_first(float* dst, Vec v, int64_t n) {
#if defined(__AVX512F__)
  _mm512_mask_storeu_ps(dst, static_cast<__mmask16>((1u << n) - 1), v);
#else
  alignas(64) float lanes[kLanes];
  opt::sgemm::store(lanes, v);
  for (int64_t j = 0; j < n; ++j) dst[j] = lanes[j];
#endif
}

// The loads of a chunk's taps: load q (kx at stride 1; at stride 2 the lanes of kx from 0,
// then from kLanes: q = 2 kx + half) starts at row[ix + start(q)].
template <int K, int S>
struct Taps {
  static constexpr int kLoads = S * K;
  // Floats the loads of one input row span.
  static constexpr int64_t kReach = S * kLanes + K - 1;
  static constexpr int64_t start(int q) { return S == 1 ? q : q / 2 + q % 2 * kLanes; }
};

// Tap kx of the chunk's kLanes outputs: row[ix + S * j + kx] for lane j; through the masks
// (zeros outside the row) unless kInside.
template <int K, int S, bool kInside>
inline Vec tap(const float* row, int64_t ix, const Mask* masks, int kx) {
  auto load = [&](int q) {
    const int64_t at = ix + Taps<K, S>::start(q);
    if constexpr (kInside) return opt::sgemm::load(row + at);
    return load_masked(row, at, masks[q]);
  };
  if constexpr (S == 1) {
    return load(kx);
  } else {
    return evens(load(2 * kx), load(2 * kx + 1), std::make_index_sequence<kLanes>{});
  }
}

// Hardswish, sigmoid and SiLU over a block's rows (optimized::activate_all: one choice of
// the activation, the rows' chains overlapped). Out of line: one copy serves every chunk.
__attribute__((noinline)) inline void activate_rows_out_of_line(Vec* rows, int count,
                                                                const rt::Epilogue& e) {
  optimized::activate_all<Vec>(reinterpret_cast<float*>(rows), count, e);
}

// The fused epilogue (Note [Fused epilogue]) on a block's R rows before they are stored:
// relu and clamp in registers as the GEMM's store computes them
// (sgemm::finish_in_registers), the others by activate_rows_out_of_line.
template <int R>
inline void activate_rows(Vec (&rows)[R], const rt::Epilogue& e) {
  using Kind = rt::EpilogueKind;
  switch (e.kind) {
    case Kind::None:
      return;
    case Kind::Relu:
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) rows[r] = optimized::activate<Kind::Relu>(rows[r], 0, 0);
      return;
    case Kind::Clamp:
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) rows[r] = optimized::activate<Kind::Clamp>(rows[r], e.lo, e.hi);
      return;
    case Kind::Hardswish:
    case Kind::Sigmoid:
    case Kind::Silu: {
      // Through a copy: were the accumulators' address taken, they would live in memory
      // for the whole chunk.
      Vec copy[R];
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) copy[r] = rows[r];
      activate_rows_out_of_line(copy, R, e);
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) rows[r] = copy[r];
      return;
    }
  }
}

// kLanes columns from ox of output rows [oy0, oy0 + R) of one plane: Note [Direct
// depthwise].
template <int K, int S, int R, bool kInside>
inline void chunk(const Layer& l, const float* plane, int64_t oy0, int64_t ox, const float* w,
                  float b, const rt::Epilogue& e, float* y) {
  constexpr int kInputRows = (R - 1) * S + K;
  const int64_t iy0 = oy0 * S - l.pad_h, ix = ox * S - l.pad_w;
  Mask masks[Taps<K, S>::kLoads];
  if constexpr (!kInside) {
#pragma GCC unroll 10
    for (int q = 0; q < Taps<K, S>::kLoads; ++q)
      masks[q] = window_mask(ix + Taps<K, S>::start(q), l.in_w);
  }
  Vec acc[R];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) acc[r] = splat(b);
#pragma GCC unroll 16
  for (int t = 0; t < kInputRows; ++t) {
    const int64_t iy = iy0 + t;
    Vec v[K];
    if (iy >= 0 && iy < l.in_h) {
      const float* row = plane + iy * l.in_w;
#pragma GCC unroll 5
      for (int kx = 0; kx < K; ++kx) v[kx] = tap<K, S, kInside>(row, ix, masks, kx);
    } else {
#pragma GCC unroll 5
      for (int kx = 0; kx < K; ++kx) v[kx] = splat(0.0f);
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const int ky = t - r * S;
      if (ky < 0 || ky >= K) continue;
#pragma GCC unroll 5
      for (int kx = 0; kx < K; ++kx)
        acc[r] = opt::sgemm::madd(splat(w[ky * K + kx]), v[kx], acc[r]);
    }
  }
  activate_rows(acc, e);
  const int64_t n = std::min<int64_t>(kLanes, l.out_w - ox);
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
    float* out = y + (oy0 + r) * l.out_w + ox;
    if (n == kLanes) {
      opt::sgemm::store(out, acc[r]);
    } else {
      store_first(out, acc[r], n);
    }
  }
}

template <int K, int S, int R>
void row_block(const Layer& l, const float* plane, int64_t oy0, const float* w, float b,
               const rt::Epilogue& e, float* y) {
  for (int64_t ox = 0; ox < l.out_w; ox += kLanes) {
#if defined(__AVX512F__)
    // A masked load costs what a load does: one copy of the chunk serves every column.
    chunk<K, S, R, false>(l, plane, oy0, ox, w, b, e, y);
#else
    const int64_t ix = ox * S - l.pad_w;
    if (ix >= 0 && ix + Taps<K, S>::kReach <= l.in_w) {
      chunk<K, S, R, true>(l, plane, oy0, ox, w, b, e, y);
    } else {
      chunk<K, S, R, false>(l, plane, oy0, ox, w, b, e, y);
    }
#endif
  }
}

template <int K, int S>
void plane(const Layer& l, const float* x, const float* w, float b, const rt::Epilogue& e,
           float* y) {
  // Note [Activation after the store]: the whole plane once it is stored (a pass per block
  // of rows cost more than it saved on 7x7 planes).
  const bool after = activates_after_store(e);
  const rt::Epilogue inner = after ? rt::Epilogue{rt::EpilogueKind::None, 0.0f, 0.0f} : e;
  for (int64_t oy = 0; oy < l.out_h; oy += kBlockRows)
    row_block<K, S, kBlockRows>(l, x, std::min(oy, l.out_h - kBlockRows), w, b, inner, y);
  if (after) finish_rows(y, 1, l.out_h * l.out_w, 0, nullptr, 0, e);
}

}  // namespace direct

using DirectPlane = void (*)(const Layer&, const float*, const float*, float, const rt::Epilogue&,
                             float*);

// The direct kernel for this depthwise layer, or null when its shape is not one it covers.
inline DirectPlane direct_depthwise(const Layer& l) {
  if (l.k_h != l.k_w || l.stride_h != l.stride_w || l.dil_h != 1 || l.dil_w != 1) return nullptr;
  if ((l.stride_h != 1 && l.stride_h != 2) || l.out_h < direct::kBlockRows) return nullptr;
  if (l.k_h == 3) return l.stride_h == 1 ? direct::plane<3, 1> : direct::plane<3, 2>;
  if (l.k_h == 5) return l.stride_h == 1 ? direct::plane<5, 1> : direct::plane<5, 2>;
  return nullptr;
}

}  // namespace conv
}  // namespace optimized
