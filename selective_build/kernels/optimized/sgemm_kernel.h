#pragma once

// The register-blocked single-precision microkernel under the packed GEMM (gemm_packed.h).
//
// Note [sgemm microkernel]
// One call computes a tile of kMR x kNR outputs over one block of the depth:
// acc[i][j] = sum over p of a[p][i] * b[p][j], a the tile's rows packed depth-major (the
// panel's height of values per p, kMR at most: Note [Balanced row panels] in gemm_packed.h),
// b its columns (kNR values per p, `b_step` floats apart). The accumulators
// live in vector registers for the whole block; each step of p loads kNR / kLanes vectors of
// b, broadcasts one value of a per row and issues one fused multiply-add per accumulator.
// Those are independent chains: 28 (AVX-512) or 12 (AVX2) of them, more than FMA latency x
// FMA units on any x86 core (4 x 2), so the loop runs at the FMA units' throughput. The
// geometry fills the register file and leaves room for b and one broadcast:
//   AVX-512 (32 registers of 16 floats): 14 x 32, 28 accumulators;
//   AVX2 + FMA (16 registers of 8):      6 x 16, 12 accumulators;
//   anything else (SSE2, NEON: 4 lanes): 6 x 8,  12 accumulators.
// A tile with fewer rows (a product's last rows) runs an instantiation for fewer (the panel
// heights, then powers of two: run_microkernel), which skips the other rows' work. Each
// output is one FMA chain in the order of p whatever the instantiation, the tile or the
// thread: bit-identical results (gemm_packed.h).
//
// Only the FMA is an intrinsic; the rest is GCC/Clang vector arithmetic on the same types.

#include <cstdint>
#include <cstring>

#include "kernels/optimized/epilogue.h"
#include "runtime/kernel/epilogue.h"

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace opt {
namespace sgemm {

#if defined(__AVX512F__)
using Vec = __m512;
constexpr int kLanes = 16, kMR = 14, kNR = 32;
// The heights a packed a's row panels may have, largest first: Note [Balanced row panels]
// in gemm_packed.h.
constexpr int kPanelHeights[] = {14, 8};
inline Vec madd(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline Vec splat(float x) { return _mm512_set1_ps(x); }
#elif defined(__AVX2__) && defined(__FMA__)
using Vec = __m256;
constexpr int kLanes = 8, kMR = 6, kNR = 16;
inline Vec madd(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline Vec splat(float x) { return _mm256_set1_ps(x); }
#elif defined(__ARM_NEON) && defined(__aarch64__)
using Vec = float32x4_t;
constexpr int kLanes = 4, kMR = 6, kNR = 8;
inline Vec madd(Vec a, Vec b, Vec c) { return vfmaq_f32(c, a, b); }
inline Vec splat(float x) { return vdupq_n_f32(x); }
#else
typedef float Vec __attribute__((vector_size(16)));
constexpr int kLanes = 4, kMR = 6, kNR = 8;
// No fused multiply-add: two roundings (-std=c++17 does not contract a * b + c).
inline Vec madd(Vec a, Vec b, Vec c) { return a * b + c; }
inline Vec splat(float x) { return Vec{x, x, x, x}; }
#endif

#if !defined(__AVX512F__)
constexpr int kPanelHeights[] = {kMR};
#endif
constexpr int kVecs = kNR / kLanes;  // vectors per row of a tile

inline Vec load(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, Vec v) { std::memcpy(p, &v, sizeof v); }

// Note [Masked b loads]
// A narrow last panel of a b read in place (a 1x1 convolution's input of 784, 196 or 49
// pixels, a Linear's row-major weight) cannot be read kNR floats wide: that would pass b's
// end. The tile that needs it copies it, one depth block at a time, into a whole panel
// padded with zeros (gemm_packed.h gemm_block); with AVX-512 each row of it is two masked
// loads, the lanes past b's end neither read nor faulted, and two stores (copy_narrow_rows),
// where a scalar loop took a fifth of MobileNetV2's tiles' time. The microkernel itself
// keeps plain loads: masked ones cost its loop 2-3 % on Zen 4, and a second loop for
// narrow tiles would cost each instantiation its size again.
//
// rows x cols floats (cols < kNR) from `from` (rows `step` apart) into whole panel rows of
// kNR at `to`, zeros past cols.
inline void copy_narrow_rows(const float* from, int64_t step, int64_t rows, int64_t cols,
                             float* to) {
#if defined(__AVX512F__)
  const auto low = static_cast<__mmask16>(cols >= kLanes ? 0xffff : (1u << cols) - 1);
  const auto high = static_cast<__mmask16>(cols <= kLanes ? 0 : (1u << (cols - kLanes)) - 1);
  for (int64_t p = 0; p < rows; ++p, from += step, to += kNR) {
    _mm512_storeu_ps(to, _mm512_maskz_loadu_ps(low, from));
    // With no lane to load, from itself: from + kLanes may lie past b's end.
    _mm512_storeu_ps(to + kLanes, _mm512_maskz_loadu_ps(high, high != 0 ? from + kLanes : from));
  }
#else
  for (int64_t p = 0; p < rows; ++p, from += step, to += kNR) {
    for (int64_t j = 0; j < cols; ++j) to[j] = from[j];
    for (int64_t j = cols; j < kNR; ++j) to[j] = 0.0f;
  }
#endif
}

// What the last depth block does to a tile before storing it: Note [GEMM epilogue] in
// gemm_packed.h. Per-channel values are this tile's: kNR of them along its columns, or one
// per row.
struct TileEpilogue {
  const float* scale;          // or null
  const float* shift;          // or null
  bool by_rows;                // the channel is the row (else the column)
  const rt::Epilogue* active;  // the fused activation (Note [Fused epilogue]), or null
  // No scale, and no activation or a relu or clamp: a whole tile is finished in registers
  // (finish_in_registers), anything else out of line (finish_tile).
  bool in_registers;
};

// Note [Epilogue in registers]
// What finish_in_registers needs of a TileEpilogue, read once per tile into values the
// compiler keeps in registers. Read through the TileEpilogue instead, every field is read
// again for every vector (the tile's float stores might alias it) and the activation chosen
// again: in a 1x1 layer of depth 16 that was as many instructions as the multiply-adds.
// One branch-free sequence serves the three activations it takes: x + shift, then
// max(lo, x), min(hi, x), + plus, each as compares and choices that give exactly the bits of
// the kernels they replace (compilers make them single max and min instructions on x86):
// - no activation: lo, hi, plus = -inf, +inf, -0; every step leaves x as it is (-0 and NaN
//   too: x + -0 is x);
// - clamp (hardtanh, relu6): lo, hi as clamp_vec makes them (elem/unary.h), plus -0: its
//   compares and choices;
// - relu (x <= 0 ? 0 : x): lo 0, hi +inf, plus +0: max keeps a -0 that relu makes 0, and
//   -0 + 0 is 0.
// A shift that is absent is -0.
struct RegisterEpilogue {
  const float* row_shift;  // one value per row (by_rows), or null: then shift, per column
  Vec shift[kVecs];
  Vec lo, hi, plus;
};

inline RegisterEpilogue registers_of(const TileEpilogue& e) {
  RegisterEpilogue f{};
  f.row_shift = e.shift != nullptr && e.by_rows ? e.shift : nullptr;
  for (int v = 0; v < kVecs; ++v)
    f.shift[v] = e.shift != nullptr && !e.by_rows ? load(e.shift + v * kLanes) : splat(-0.0f);
  const bool relu = e.active != nullptr && e.active->kind == rt::EpilogueKind::Relu;
  const bool clamp = e.active != nullptr && e.active->kind == rt::EpilogueKind::Clamp;
  f.lo = relu ? Vec{} : clamp ? Vec{} + e.active->lo : splat(-__builtin_inff());
  f.hi = clamp ? Vec{} + e.active->hi : splat(__builtin_inff());
  f.plus = splat(relu ? 0.0f : -0.0f);
  return f;
}

// Vector `vec` of row `row` of a tile, finished (Note [Epilogue in registers]).
inline Vec finish_in_registers(Vec x, const RegisterEpilogue& f, int row, int vec) {
  x = x + (f.row_shift != nullptr ? splat(f.row_shift[row]) : f.shift[vec]);
  x = f.lo > x ? f.lo : x;
  x = f.hi < x ? f.hi : x;
  return x + f.plus;
}

// Keeps `v` a rounded product: no multiply-add may fuse it with the addition after it (as
// in Note [No contraction], kernels/quantized/quant_loops.h), so the epilogue rounds as the
// separate kernels it replaces do.
inline Vec rounded(Vec v) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__("" : "+v"(v));
#elif defined(__aarch64__) || defined(__arm__)
  __asm__("" : "+w"(v));
#endif
  return v;
}

inline Vec finish(Vec x, const TileEpilogue& e, int row, int vec) {
  const int at = e.by_rows ? row : vec * kLanes;
  if (e.scale != nullptr) x = rounded(x * (e.by_rows ? splat(e.scale[at]) : load(e.scale + at)));
  if (e.shift != nullptr) x = x + (e.by_rows ? splat(e.shift[at]) : load(e.shift + at));
  return x;
}

// c[0:rows, 0:cols] (+ c when `accumulate`) = tile, through `epilogue` when it is given,
// `tile` holding the accumulators (kNR floats per row). Out of line: one copy serves every
// instantiation, and it is only for the last depth block of a tile with an epilogue or at
// the edge of c. One pass: each vector is loaded from the tile, added to c, finished
// (scale, shift) and activated as the activation's own kernel computes it
// (optimized::activate_stores on this wider vector: the same operations lane by lane, so
// the same bits; the activation chosen once for the tile, so the vectors' chains overlap),
// then stored, in a register throughout (three passes over the tile in L1 were a fifth of
// EfficientNet-B0's time: its SiLU tiles all come through here). Lanes past `cols` are
// computed and never stored.
__attribute__((noinline)) inline void finish_tile(const float* tile, int64_t rows, float* c,
                                                  int64_t ldc, int64_t cols, bool accumulate,
                                                  const TileEpilogue* epilogue) {
  // The epilogue read once, into locals: c's stores might alias it, so through the pointer
  // every field would be read again for every vector (Note [Epilogue in registers]).
  const TileEpilogue fields =
      epilogue != nullptr ? *epilogue : TileEpilogue{nullptr, nullptr, false, nullptr, false};
  const rt::Epilogue active =
      fields.active != nullptr ? *fields.active : rt::Epilogue{rt::EpilogueKind::None, 0.0f, 0.0f};
  // Vector k of the tile: row k / kVecs, its columns from (k % kVecs) kLanes.
  auto at = [&](int64_t k) { return c + k / kVecs * ldc + k % kVecs * kLanes; };
  auto width = [&](int64_t k) { return cols - k % kVecs * kLanes; };  // its lanes inside c
  // Both inlined into every activation's loop: called per vector, the call clobbered every
  // vector register, and the activation's constants were reloaded from the stack each time
  // (SiLU's tiles took twice as long as the same operations in a plain loop).
  optimized::activate_stores<Vec>(
      tile, rows * kVecs, active,
      [&](int64_t k, Vec x) __attribute__((always_inline)) {
        if (accumulate && width(k) > 0)  // as the vector add of store_tile
          x = x + (width(k) >= kLanes ? load(at(k))
                                      : optimized::load_partial<Vec>(at(k), width(k), 0.0f));
        if (epilogue == nullptr) return x;
        return finish(x, fields, static_cast<int>(k / kVecs), static_cast<int>(k % kVecs));
      },
      [&](int64_t k, Vec x) __attribute__((always_inline)) {
        if (width(k) >= kLanes) {
          store(at(k), x);
        } else if (width(k) > 0) {
          optimized::store_partial(at(k), x, width(k));
        }
      });
}

// The accumulators of a tile into `tile` (kNR floats per row), for finish_tile and
// finish_tile_outputs.
template <int R>
__attribute__((always_inline)) inline void spill_tile(const Vec (&acc)[R][kVecs], float* tile) {
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) {
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) store(tile + i * kNR + v * kLanes, acc[i][v]);
  }
}

// Note [Tap outputs]
// A tap GEMM's columns (Note [Tap GEMM], conv_taps.h) are its grid's: column j is pixel (j /
// grid_w, j % grid_w), an output only when j % grid_w < out_w, at oy out_w + ox. Its tiles
// store straight into the output, the grid's other columns neither read nor written: a
// vector's lanes that are outputs go, in order, to consecutive outputs (an output row's last
// pixel is followed by the next row's first), so each vector is one compress and a store of
// its first lanes, and an accumulation one load and an expand. The sums are the same, only
// where they are kept changes: the same bits as a dense tile copied out, without the copy
// (which was 2-5 % of ResNet's and SqueezeNet's time). Only the row-table instantiations
// (the tap convolution's) have this code, and only with AVX-512: without its compress and
// expand, lane by lane, it cost an AVX2 runner a fifth of ResNet's time, so there a tap
// GEMM's tiles are dense and conv_taps.h copies their outputs out (kTapOutputs).
#if defined(__AVX512F__)
constexpr bool kTapOutputs = true;
#else
constexpr bool kTapOutputs = false;
#endif

struct OutputLanes {
  uint32_t lanes[kVecs];  // bit l: lane l of vector v is an output
  uint32_t first[kVecs];  // as many low bits as lanes has
  int64_t at[kVecs];      // where its first output lane goes, from its row's start (else 0)
};

// The OutputLanes of the tile of columns [j, j + kNR) of a grid of `cols` columns.
inline OutputLanes output_lanes(int64_t j, int64_t cols, int64_t grid_w, int64_t out_w) {
  OutputLanes o{};
  int64_t oy = j / grid_w, ox = j % grid_w;
  for (int v = 0; v < kVecs; ++v) {
    for (int l = 0; l < kLanes && j < cols; ++l, ++j) {
      if (ox < out_w) {
        if (o.lanes[v] == 0) o.at[v] = oy * out_w + ox;
        o.lanes[v] |= 1u << l;
      }
      if (++ox == grid_w) ox = 0, ++oy;
    }
    o.first[v] = (1u << __builtin_popcount(o.lanes[v])) - 1;
  }
  return o;
}

#if defined(__AVX512F__)
// Vector v of a row of a tile whose outputs start at `p` (Note [Tap outputs]): loaded (lanes
// that are no output zero), and stored.
inline Vec load_outputs(const float* p, const OutputLanes& out, int v) {
  return _mm512_maskz_expand_ps(static_cast<__mmask16>(out.lanes[v]),
                                _mm512_maskz_loadu_ps(static_cast<__mmask16>(out.first[v]), p));
}
inline void store_outputs(float* p, const OutputLanes& out, int v, Vec x) {
  _mm512_mask_storeu_ps(p, static_cast<__mmask16>(out.first[v]),
                        _mm512_maskz_compress_ps(static_cast<__mmask16>(out.lanes[v]), x));
}

// finish_tile for a tile of a tap GEMM (Note [Tap outputs]): row i's outputs from c + i ldc,
// where `out` says.
__attribute__((noinline)) inline void finish_tile_outputs(const float* tile, int64_t rows, float* c,
                                                          int64_t ldc, const OutputLanes& out,
                                                          bool accumulate,
                                                          const TileEpilogue* epilogue) {
  const rt::Epilogue none{rt::EpilogueKind::None, 0.0f, 0.0f};
  const rt::Epilogue& active =
      epilogue != nullptr && epilogue->active != nullptr ? *epilogue->active : none;
  auto at = [&](int64_t k) { return c + k / kVecs * ldc + out.at[k % kVecs]; };
  optimized::activate_stores<Vec>(
      tile, rows * kVecs, active,
      [&](int64_t k, Vec x) {
        const int v = static_cast<int>(k % kVecs);
        if (accumulate) x = x + load_outputs(at(k), out, v);
        if (epilogue == nullptr) return x;
        return finish(x, *epilogue, static_cast<int>(k / kVecs), v);
      },
      [&](int64_t k, Vec x) { store_outputs(at(k), out, static_cast<int>(k % kVecs), x); });
}

// store_tile for a tile of a tap GEMM: without an epilogue, or with one finished in
// registers, straight from the registers; anything else through finish_tile_outputs.
template <int R>
__attribute__((always_inline)) inline void store_tile_outputs(const Vec (&acc)[R][kVecs], float* c,
                                                              int64_t ldc, int64_t rows,
                                                              const OutputLanes& out,
                                                              bool accumulate,
                                                              const TileEpilogue* epilogue) {
  if (epilogue == nullptr || epilogue->in_registers) {
    const RegisterEpilogue f = epilogue != nullptr ? registers_of(*epilogue) : RegisterEpilogue{};
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
      if (i >= rows) break;
#pragma GCC unroll 4
      for (int v = 0; v < kVecs; ++v) {
        float* at = c + i * ldc + out.at[v];
        const Vec x = accumulate ? acc[i][v] + load_outputs(at, out, v) : acc[i][v];
        store_outputs(at, out, v, epilogue == nullptr ? x : finish_in_registers(x, f, i, v));
      }
    }
    return;
  }
  float tile[R * kNR];
  spill_tile<R>(acc, tile);
  finish_tile_outputs(tile, rows < R ? rows : R, c, ldc, out, accumulate, epilogue);
}
#endif

// c[0:rows, 0:cols] (+ c when `accumulate`) = acc, through `epilogue` when it is given: a
// whole tile without one, or with one finished in registers, straight from the registers;
// anything else through finish_tile.
template <int R>
__attribute__((always_inline)) inline void store_tile(const Vec (&acc)[R][kVecs], float* c,
                                                      int64_t ldc, int64_t rows, int64_t cols,
                                                      bool accumulate,
                                                      const TileEpilogue* epilogue) {
  if (rows == R && cols == kNR && (epilogue == nullptr || epilogue->in_registers)) {
    const RegisterEpilogue f = epilogue != nullptr ? registers_of(*epilogue) : RegisterEpilogue{};
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
#pragma GCC unroll 4
      for (int v = 0; v < kVecs; ++v) {
        float* at = c + i * ldc + v * kLanes;
        const Vec x = accumulate ? acc[i][v] + load(at) : acc[i][v];
        store(at, epilogue == nullptr ? x : finish_in_registers(x, f, i, v));
      }
    }
    return;
  }
  float tile[R * kNR];
  spill_tile<R>(acc, tile);
  finish_tile(tile, rows < R ? rows : R, c, ldc, cols, accumulate, epilogue);
}

// The tile of R rows over `depth` steps: Note [sgemm microkernel]. Step p of a lies at a +
// p * a_step (the panel's height, at least R). Row p of b lies at b + p * b_step, or, with a
// row table (kRowTable), at b + b_rows[p]: the rows of a convolution's input read in place
// tap by tap (Note [Tap GEMM], conv_taps.h), whose tile goes, with kTapOutputs, to c's rows
// (c + i ldc) where `outputs` says (Note [Tap outputs]).
template <int R, bool kRowTable>
void microkernel(int64_t depth, const float* a, int64_t a_step, const float* b, int64_t b_step,
                 const int64_t* b_rows, float* c, int64_t ldc, int64_t rows, int64_t cols,
                 bool accumulate, const TileEpilogue* epilogue, const OutputLanes* outputs) {
  Vec acc[R][kVecs];
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) {
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) acc[i][v] = Vec{};
  }
  for (int64_t p = 0; p < depth; ++p) {
    const float* row = kRowTable ? b + b_rows[p] : b;
    Vec bv[kVecs];
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) bv[v] = load(row + v * kLanes);
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
      const Vec ai = splat(a[i]);
#pragma GCC unroll 4
      for (int v = 0; v < kVecs; ++v) acc[i][v] = madd(ai, bv[v], acc[i][v]);
    }
    a += a_step;
    if (!kRowTable) b += b_step;
  }
#if defined(__AVX512F__)
  if constexpr (kRowTable) {
    store_tile_outputs<R>(acc, c, ldc, rows, *outputs, accumulate, epilogue);
    return;
  }
#endif
  (void)outputs;
  store_tile<R>(acc, c, ldc, rows, cols, accumulate, epilogue);
}

// Note [One-row tiles]
// A product of one row (a Linear for one token: a classifier head, a decoder's projection
// when it is not streamed) has tiles of one row, and microkernel<1> keeps kVecs
// accumulator chains (2 with AVX-512), fewer than the FMA's latency times its units: each
// step waits for the last one's FMAs. row_microkernel takes kRowPanels full column panels
// per step instead (8 chains with AVX-512), each stored as microkernel<1> stores its tile.
// Each output is still one FMA chain in order of p: the same bits.
constexpr int kRowPanels = 4;

// One row of a (step p at a + p * a_step) times kRowPanels whole panels of b (panel t's row
// p at b + t * panel_step + p * b_step) into c's kRowPanels * kNR columns, through
// epilogues[t] (or null) for panel t; as microkernel<1, false> does panel by panel.
inline void row_microkernel(int64_t depth, const float* a, int64_t a_step, const float* b,
                            int64_t b_step, int64_t panel_step, float* c, bool accumulate_c,
                            const TileEpilogue* const (&epilogues)[kRowPanels]) {
  Vec acc[kRowPanels][1][kVecs];
#pragma GCC unroll 4
  for (int t = 0; t < kRowPanels; ++t) {
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) acc[t][0][v] = Vec{};
  }
  for (int64_t p = 0; p < depth; ++p) {
    const Vec ai = splat(*a);
#pragma GCC unroll 4
    for (int t = 0; t < kRowPanels; ++t) {
#pragma GCC unroll 4
      for (int v = 0; v < kVecs; ++v)
        acc[t][0][v] = madd(ai, load(b + t * panel_step + v * kLanes), acc[t][0][v]);
    }
    a += a_step;
    b += b_step;
  }
#pragma GCC unroll 4
  for (int t = 0; t < kRowPanels; ++t)
    store_tile<1>(acc[t], c + t * kNR, 0, 1, kNR, accumulate_c, epilogues[t]);
}

// The next smaller instantiation below R rows: the next panel height, then below the
// smallest the largest power of two under it, down to 4, then 1 (rows not computed at
// all). Two rows run as four: with AVX-512 a tile of 2 rows is bound by the FMA's latency
// and takes as long as one of 4 (benchmarks/RESULTS.md, "Balanced row panels"), and its
// instantiation would be code for nothing.
constexpr int smaller_tile(int r) {
  for (int h : kPanelHeights)
    if (h < r) return h;
  if (r <= 4) return 1;
  int p = 4;
  while (p * 2 < r) p *= 2;
  return p;
}

// The instantiation for `rows` (1 to the panel's height a_step): the smallest of
// smaller_tile's chain from kMR that holds them, never more than the panel's height (which
// is in the chain); b's rows b_step apart, or, with kRowTable, where b_rows says and c's
// where `outputs` says (only the convolution instantiates that one: the other GEMMs' code
// stays as it was).
template <bool kRowTable, int R = kMR>
inline void run_microkernel(int64_t depth, const float* a, int64_t a_step, const float* b,
                            int64_t b_step, const int64_t* b_rows, float* c, int64_t ldc,
                            int64_t rows, int64_t cols, bool accumulate,
                            const TileEpilogue* epilogue, const OutputLanes* outputs = nullptr) {
  if constexpr (R > 1) {
    constexpr int kSmaller = smaller_tile(R);
    if (rows <= kSmaller) {
      run_microkernel<kRowTable, kSmaller>(depth, a, a_step, b, b_step, b_rows, c, ldc, rows, cols,
                                           accumulate, epilogue, outputs);
      return;
    }
  }
  microkernel<R, kRowTable>(depth, a, a_step, b, b_step, b_rows, c, ldc, rows, cols, accumulate,
                            epilogue, outputs);
}

// Note [Indirect microkernel]
// A channels-last convolution's GEMM (Note [Channels-last GEMM], conv_channels_last.h) has
// the output pixels as rows and its depth as (tap, input channel): row i's values for tap t
// are the cin channels of one input pixel, adjacent in memory, or zeros in the padding. So
// a is never packed: for each tap the kernel takes R rows' offsets (rows[t * row_step + i]
// floats from x, or -1: `zeros`) and broadcasts row i's p-th value from its pointer, while b (the weight, packed at load in
// the same (tap, cin) order) is read as the packed GEMM reads it. A panel of at most kLanes
// columns (a layer of 16 output channels, or its last 16) computes V = 1 vector per row
// instead of kVecs: half the multiply-adds, still R independent chains. Each output is one
// FMA chain over the whole depth in order of (tap, cin), whatever the tile, its width or
// the thread: the same bits for every thread count. Its store is store_tile's (an epilogue
// per column).
template <int R, int V>
void indirect_microkernel(int64_t taps, int64_t cin, const int32_t* rows, int64_t row_step,
                          const float* x, const float* zeros, const float* b, float* c, int64_t ldc,
                          int64_t tile_rows, int64_t cols, const TileEpilogue* epilogue) {
  Vec acc[R][kVecs];
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) {
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) acc[i][v] = Vec{};
  }
  for (int64_t t = 0; t < taps; ++t, rows += row_step) {
    const float* a[R];
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) a[i] = rows[i] >= 0 ? x + rows[i] : zeros;
    for (int64_t p = 0; p < cin; ++p, b += kNR) {
      Vec bv[V];
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) bv[v] = load(b + v * kLanes);
#pragma GCC unroll 16
      for (int i = 0; i < R; ++i) {
        const Vec ai = splat(a[i][p]);
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) acc[i][v] = madd(ai, bv[v], acc[i][v]);
      }
    }
  }
  if constexpr (V < kVecs) {
    if (cols == kLanes && (epilogue == nullptr || epilogue->in_registers)) {
      // A whole narrow tile straight from the registers, as store_tile stores a wide one.
      const RegisterEpilogue f = epilogue != nullptr ? registers_of(*epilogue) : RegisterEpilogue{};
#pragma GCC unroll 16
      for (int i = 0; i < R; ++i) {
        if (i >= tile_rows) break;
        store(c + i * ldc,
              epilogue == nullptr ? acc[i][0] : finish_in_registers(acc[i][0], f, i, 0));
      }
      return;
    }
  }
  store_tile<R>(acc, c, ldc, tile_rows, cols, false, epilogue);
}

// indirect_microkernel for `tile_rows` rows (1 to kMR): the smallest of smaller_tile's chain
// that holds them, as run_microkernel chooses; one vector wide when `cols` fit one.
template <int R = kMR>
inline void run_indirect(int64_t taps, int64_t cin, const int32_t* rows, int64_t row_step,
                         const float* x, const float* zeros, const float* b, float* c, int64_t ldc,
                         int64_t tile_rows, int64_t cols, const TileEpilogue* epilogue) {
  if constexpr (R > 1) {
    constexpr int kSmaller = smaller_tile(R);
    if (tile_rows <= kSmaller) {
      run_indirect<kSmaller>(taps, cin, rows, row_step, x, zeros, b, c, ldc, tile_rows, cols,
                             epilogue);
      return;
    }
  }
  if (cols <= kLanes) {
    indirect_microkernel<R, 1>(taps, cin, rows, row_step, x, zeros, b, c, ldc, tile_rows, cols,
                               epilogue);
  } else {
    indirect_microkernel<R, kVecs>(taps, cin, rows, row_step, x, zeros, b, c, ldc, tile_rows, cols,
                                   epilogue);
  }
}

}  // namespace sgemm
}  // namespace opt
