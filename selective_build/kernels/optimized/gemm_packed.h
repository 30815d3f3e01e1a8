#pragma once

// The optimized library's float GEMM: c = epilogue(a @ b) on our own microkernel
// (sgemm_kernel.h), for matrix products and the GEMM inside convolution.
//
// Note [Packed GEMM]
// The operands are read as panels: a (rows x depth) as panels of a few rows (kMR at most,
// Note [Balanced row panels]), b (depth x cols) as panels of kNR columns, each stored
// depth-major (for each p, the panel's values of a or kNR values of b, zeros past the
// matrix's edge), so the microkernel reads both
// sequentially. A constant operand (a layer's weight) is packed once when the method loads
// (Note [Prepared weights], runtime/kernel/kernel_context.h); the other is packed per call
// into this thread's GEMM scratch, or, for b, read in place when it is row-major and the
// product has too few rows to repay a copy (a few tokens through a big Linear: b is then
// streamed from memory once, Note [Streaming GEMM] in gemm.h).
//
// Blocking: the depth is summed in blocks of kDepthBlock (the "kc" of the literature). The
// microkernel sums one block in registers and adds it to c, so output (i, j) is
// (((block 0) + block 1) + ...), each block one FMA chain in order of p: a function of the
// depth alone, never of the tile, the microkernel's row count or the thread. c is cut into
// tiles of about kTileRowPanels x kMR rows (whole panels) x kTileCols spread over the
// threads (Note [Threads]): results are bit-identical for every thread count. Within a
// tile, for each depth block, one panel of a (kMR x kDepthBlock floats at most, 14 KiB with
// AVX-512) stays in L1 while the tile's panels of b (kTileCols columns, 256 KiB) come from
// L2.
//
// Note [Balanced row panels]
// The microkernel runs at the FMA units' rate only on a tile of many rows (Note [sgemm
// microkernel]); a product's last panel of a few rows runs a smaller instantiation at a
// fraction of it. With one panel height, 16 output channels ran as 14 + 2 rows and 32 as
// 14 + 14 + 4. So the height is chosen per matrix, when a is packed, from the few compiled
// ones (sgemm::kPanelHeights: 14 and 8 with AVX-512), as the one whose panels cost the
// least by the microkernel's measured time per step of each instantiation (panel_height):
// 16 rows run as 8 + 8, 24 as 8 x 3, 48 as 8 x 6, 28 still as 14 + 14. A height of 12 as
// well (24 as 12 + 12) measured no faster than 8 and cost its instantiation's 5 KiB of
// code (benchmarks/RESULTS.md, "Balanced row panels"). It depends on the matrix's rows
// alone, so a caller that packs a (or a prepared header, Note [Prepared GEMM operand]) and
// the GEMM that reads it agree; a caller reading a block of rows of a packed matrix (a
// convolution's row blocks) passes the whole matrix's height (PanelsA). Each output is
// still one FMA chain in order of p, whatever its panel: the bits do not change.
//
// Note [GEMM epilogue]
// The last depth block of a tile applies, before its store: a per-channel scale, then a
// per-channel shift (a bias), the channel being c's row (a convolution's output channel in
// NCHW) or its column (a Linear's output feature), then a fused activation (Note [Fused
// epilogue], runtime/kernel/epilogue.h) computed as its own kernel computes it
// (kernels/optimized/epilogue.h), on the tile while it is in L1: fusing it changes no bit
// of the result.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/matrix.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/sgemm_kernel.h"
#include "kernels/optimized/transpose.h"

namespace opt {

using sgemm::kMR;
using sgemm::kNR;
using sgemm::kPanelHeights;
constexpr int kLowestHeight = kPanelHeights[sizeof kPanelHeights / sizeof kPanelHeights[0] - 1];

constexpr int64_t kDepthBlock = 256;
constexpr int64_t kTileRowPanels = 8;
constexpr int64_t kTileCols = 256 / kNR * kNR;
// b is packed per call only when the product has more rows than this many panels of kMR
// (Note [Packed GEMM]; of kMR whatever its own panels' height, Note [Balanced row panels]);
// with fewer, copying b costs about as much as the product.
constexpr int64_t kInPlaceRowPanels = 2;

inline int64_t panels(int64_t extent, int64_t width) { return (extent + width - 1) / width; }

// The microkernel's time for one step of p over a tile of `rows` rows (1 to kMR): the
// instantiation's that run_microkernel takes for them, in hundredths of a nanosecond,
// measured on an AMD EPYC (Zen 4, AVX-512) by benchmarks/gemm_tiles.py (RESULTS.md,
// "Balanced row panels"). From 4 rows up a row costs the same (the FMA units are full);
// 1 and 2 rows are bound by the FMA's latency. Only the ratios matter.
inline int64_t tile_step_cost(int64_t rows) {
#if defined(__AVX512F__)
  static constexpr int64_t kCost[] = {0,   160, 221, 221, 221, 443, 443, 443,
                                      443, 774, 774, 774, 774, 774, 774};
  static_assert(sizeof kCost / sizeof kCost[0] == kMR + 1, "a cost per row count");
  return kCost[rows];
#else
  return rows;  // one panel height: nothing to choose
#endif
}

// The panel height of a packed a of `rows` rows: Note [Balanced row panels]. The cheapest
// panels by tile_step_cost, each panel charged a little more for its tile's store and its
// second read of b (a judgement, not a measurement: it keeps 28 rows as 14 + 14, not 8 x
// 3 + 4, which the steps alone price the same); of equals the fewest, then the lowest
// (less padding to pack and keep: one row goes in a panel of 8).
inline int64_t panel_height(int64_t rows) {
  constexpr int64_t kPanelCost = 20;
  int64_t best = 0, best_cost = 0, best_panels = 0;
  for (const int64_t height : kPanelHeights) {
    const int64_t full = rows / height, rest = rows % height, count = panels(rows, height);
    const int64_t cost =
        full * tile_step_cost(height) + (rest > 0 ? tile_step_cost(rest) : 0) + count * kPanelCost;
    if (best == 0 || cost < best_cost || (cost == best_cost && count <= best_panels))
      best = height, best_cost = cost, best_panels = count;
  }
  return best;
}

// Floats a packed a (rows x depth) takes in panels of `height` rows (by default its own:
// panel_height), and b (depth x cols).
inline int64_t packed_a_floats(int64_t rows, int64_t depth, int64_t height) {
  return panels(rows, height) * height * depth;
}
inline int64_t packed_a_floats(int64_t rows, int64_t depth) {
  return packed_a_floats(rows, depth, panel_height(rows));
}
inline int64_t packed_b_floats(int64_t depth, int64_t cols) {
  return panels(cols, kNR) * kNR * depth;
}

// Panels [first, last) of `height` rows of a packed into `packed` (the whole buffer, panel
// 0 at its start).
inline void pack_a_panels(const Matrix<const float>& a, int64_t first, int64_t last, int64_t height,
                          float* packed) {
  const int64_t depth = a.cols;
  for (int64_t q = first; q < last; ++q) {
    float* dst = packed + q * height * depth;
    const int64_t row0 = q * height, rows = a.rows - row0 < height ? a.rows - row0 : height;
    if (rows < height) std::memset(dst, 0, sizeof(float) * height * depth);
    const float* src = a.data + row0 * a.row_stride;
#if defined(__AVX512F__)
    if (a.col_stride == 1) {
      // Row-major: the panel is its rows transposed, in registers (transpose.h).
      static_assert(kMR <= kTransposeLanes, "a panel's rows are transposed at once");
      transpose_rows(src, a.row_stride, static_cast<int>(rows), depth, dst, height);
      continue;
    }
#endif
    if (a.row_stride == 1) {
      // Column-major (a 1x1 convolution's pixels as rows, Note [Pixels as rows] in
      // conv_pixel_rows.h): each step of p copies the panel's adjacent values.
      for (int64_t p = 0; p < depth; ++p, dst += height) {
        const float* from = src + p * a.col_stride;
        // Copies of known size: a few vector moves (the loop stayed scalar).
        if (rows == kMR && height == kMR) {
          std::memcpy(dst, from, sizeof(float) * kMR);
        } else if (rows == kLowestHeight && height == kLowestHeight) {
          std::memcpy(dst, from, sizeof(float) * kLowestHeight);
        } else {
          for (int64_t i = 0; i < rows; ++i) dst[i] = from[i];
        }
      }
      continue;
    }
    if (a.col_stride == 1 && rows == kMR && height == kMR) {
      // Row-major: each step of p gathers one column of the panel, writing in order.
      for (int64_t p = 0; p < depth; ++p, dst += kMR) {
#pragma GCC unroll 16
        for (int64_t i = 0; i < kMR; ++i) dst[i] = src[i * a.row_stride + p];
      }
      continue;
    }
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t p = 0; p < depth; ++p)
        dst[p * height + i] = src[i * a.row_stride + p * a.col_stride];
    }
  }
}

// Panels [first, last) of b (depth x cols) into `packed`.
inline void pack_b_panels(const Matrix<const float>& b, int64_t first, int64_t last,
                          float* packed) {
  const int64_t depth = b.rows;
  for (int64_t q = first; q < last; ++q) {
    float* dst = packed + q * kNR * depth;
    const int64_t col0 = q * kNR, cols = b.cols - col0 < kNR ? b.cols - col0 : kNR;
    for (int64_t p = 0; p < depth; ++p, dst += kNR) {
      const float* src = b.data + p * b.row_stride + col0 * b.col_stride;
      if (b.col_stride == 1) {
        std::memcpy(dst, src, sizeof(float) * cols);
      } else {
        for (int64_t j = 0; j < cols; ++j) dst[j] = src[j * b.col_stride];
      }
      if (cols < kNR) std::memset(dst + cols, 0, sizeof(float) * (kNR - cols));
    }
  }
}

// The whole of a (in panels of `height` rows, by default its own) or b, packed (on this
// thread).
inline void pack_a(const Matrix<const float>& a, float* packed, int64_t height) {
  pack_a_panels(a, 0, panels(a.rows, height), height, packed);
}
inline void pack_a(const Matrix<const float>& a, float* packed) {
  pack_a(a, packed, panel_height(a.rows));
}
inline void pack_b(const Matrix<const float>& b, float* packed) {
  pack_b_panels(b, 0, panels(b.cols, kNR), packed);
}

// Note [GEMM epilogue]. Per-channel arrays hold one value per row of c (by_rows) or per
// column; null when absent.
struct Epilogue {
  const float* scale = nullptr;
  const float* shift = nullptr;
  bool by_rows = false;
  rt::Epilogue active{rt::EpilogueKind::None, 0.0f, 0.0f};
  // With a row table (PanelsB::row_table) and sgemm::kTapOutputs: c's columns are a tap
  // grid's, rows grid_w wide, the first out_w of each an output stored at c's row + oy out_w
  // + ox (Note [Tap outputs], sgemm_kernel.h).
  int64_t grid_w = 0, out_w = 0;

  bool activates() const { return active.kind != rt::EpilogueKind::None; }
  // What sgemm::finish_in_registers computes.
  bool in_registers() const {
    return scale == nullptr &&
           (active.kind == rt::EpilogueKind::None || active.kind == rt::EpilogueKind::Relu ||
            active.kind == rt::EpilogueKind::Clamp);
  }
  bool any() const { return scale != nullptr || shift != nullptr || activates(); }
};

// The epilogue of one value of channel `channel`, as the microkernel's store computes it.
inline float finish_scalar(float x, const Epilogue& e, int64_t channel) {
  if (e.scale != nullptr) x = sgemm::rounded(sgemm::splat(x * e.scale[channel]))[0];
  if (e.shift != nullptr) x = x + e.shift[channel];
  if (e.activates()) optimized::finish_rows(&x, 1, 1, 0, nullptr, 0, e.active);
  return x;
}

// A packed a as the microkernel reads it: panels of `height` rows, the one of rows [i, i +
// height) at data + i * depth (Note [Balanced row panels]).
struct PanelsA {
  const float* data;
  int64_t height;
};

// b as the microkernel reads it: panel q (columns [q kNR, (q + 1) kNR)) at data + (q -
// first) * panel_step, row p of a panel k_step floats after row p - 1. Packed: k_step kNR,
// panel_step kNR x depth. In place (row-major b): k_step its row stride, panel_step kNR,
// and the last panel, if narrower than kNR, is copied by the tile that needs it (a
// full-width read would pass b's end: Note [Masked b loads]). With a row table (`rows`): row p of panel q at data
// + (q - first) * kNR + rows[p], every panel read whole (Note [Tap GEMM] in
// conv_taps.h: its b is a padded input that holds the floats a last panel reads), and, with
// sgemm::kTapOutputs, c's columns those of the tap grid the Epilogue names (Note [Tap
// outputs]).
struct PanelsB {
  const float* data;
  int64_t k_step, panel_step;
  bool in_place;
  int64_t first = 0;              // the panel at data
  const int64_t* rows = nullptr;  // the row table, or null

  static PanelsB row_table(const float* data, const int64_t* rows) {
    return PanelsB{data, 0, kNR, false, 0, rows};
  }

  static PanelsB packed(const float* data, int64_t depth, int64_t first = 0) {
    return PanelsB{data, kNR, kNR * depth, false, first};
  }
  static PanelsB row_major(const Matrix<const float>& b) {
    return PanelsB{b.data, b.row_stride, kNR, true};
  }
};

// The GEMM's own scratch, apart from the kernels' (Note [Kernel scratch]): a convolution's
// im2col tile lives in that one while its product packs here. A tap convolution, which
// calls no gemm() while its tiles run, keeps its padded or phase planes and its row table
// here (Note [Tap GEMM]).
inline ThreadScratch& gemm_scratch() {
  static thread_local ThreadScratch scratch;
  return scratch;
}

namespace detail {

// The epilogue of the tile of c at (i, j), `rows` x `cols` (Note [GEMM epilogue]); a narrow
// tile's per-column values copied into `scale` and `shift`, padded so that vector loads
// stay inside.
inline sgemm::TileEpilogue tile_epilogue_of(const Epilogue& e, int64_t i, int64_t j, int64_t rows,
                                            int64_t cols, float (&scale)[kNR],
                                            float (&shift)[kNR]) {
  const int64_t at = e.by_rows ? i : j, count = e.by_rows ? rows : cols;
  sgemm::TileEpilogue tile{e.scale == nullptr ? nullptr : e.scale + at,
                           e.shift == nullptr ? nullptr : e.shift + at, e.by_rows,
                           e.activates() ? &e.active : nullptr, e.in_registers()};
  if (!e.by_rows && count < kNR) {
    if (e.scale != nullptr) {
      std::memcpy(scale, e.scale + at, sizeof(float) * count);
      std::memset(scale + count, 0, sizeof(float) * (kNR - count));
      tile.scale = scale;
    }
    if (e.shift != nullptr) {
      std::memcpy(shift, e.shift + at, sizeof(float) * count);
      std::memset(shift + count, 0, sizeof(float) * (kNR - count));
      tile.shift = shift;
    }
  }
  return tile;
}

// Columns [j, j + kRowPanels kNR) of c's one row, whole panels, over one depth block:
// Note [One-row tiles]. `a_panel` and `b_panel` start at the block; returns the next column.
inline int64_t one_row_panels(int64_t block, const float* a_panel, int64_t height,
                              const float* b_panel, const PanelsB& b, const Matrix<float>& c,
                              const Epilogue& e, bool last, bool accumulate, int64_t j) {
  float unused[kNR];  // whole tiles: no padded copies
  sgemm::TileEpilogue tiles[sgemm::kRowPanels];
  const sgemm::TileEpilogue* epilogues[sgemm::kRowPanels];
  for (int t = 0; t < sgemm::kRowPanels; ++t) {
    if (last && e.any()) tiles[t] = tile_epilogue_of(e, 0, j + t * kNR, 1, kNR, unused, unused);
    epilogues[t] = last && e.any() ? &tiles[t] : nullptr;
  }
  sgemm::row_microkernel(block, a_panel, height, b_panel, b.k_step, b.panel_step, c.data + j,
                         accumulate, epilogues);
  return j + sgemm::kRowPanels * kNR;
}

// One depth block [p0, p0 + kDepthBlock) of one tile of c: rows [row0, row0 + rows),
// columns [col0, col0 + cols).
template <bool kRowTable>
inline void gemm_block(int64_t depth, int64_t p0, const PanelsA& a, const PanelsB& b,
                       const Matrix<float>& c, const Epilogue& e, int64_t row0, int64_t rows,
                       int64_t col0, int64_t cols, float* tail_panel) {
  const int64_t last_col_panel = panels(c.cols, kNR) - 1;
  const int64_t block = depth - p0 < kDepthBlock ? depth - p0 : kDepthBlock;
  const bool last = p0 + kDepthBlock >= depth;
  const int64_t narrow_cols = c.cols - last_col_panel * kNR;
  const bool narrow_tail = b.in_place && narrow_cols < kNR && col0 + cols == c.cols;
  if (narrow_tail) {
    // The narrow last panel, copied for this block once for all its row panels (Note
    // [Masked b loads]).
    sgemm::copy_narrow_rows(b.data + (last_col_panel - b.first) * b.panel_step + p0 * b.k_step,
                            b.k_step, block, narrow_cols, tail_panel);
  }
  // A tap GEMM's tiles' output lanes, the same for all its row panels (Note [Tap outputs]).
  constexpr bool kOutputs = kRowTable && sgemm::kTapOutputs;
  sgemm::OutputLanes outputs[kOutputs ? kTileCols / kNR : 1];
  if constexpr (kOutputs) {
    for (int64_t j = col0; j < col0 + cols; j += kNR)
      outputs[(j - col0) / kNR] = sgemm::output_lanes(j, c.cols, e.grid_w, e.out_w);
  }
  const int64_t height = a.height;
  for (int64_t i = row0; i < row0 + rows; i += height) {
    const float* a_panel = a.data + i * depth + p0 * height;
    const int64_t tile_rows = c.rows - i < height ? c.rows - i : height;
    int64_t j = col0;
    if (!kRowTable && c.rows == 1) {
      while (j + sgemm::kRowPanels * kNR <= col0 + cols)
        j = one_row_panels(block, a_panel, height,
                           b.data + (j / kNR - b.first) * b.panel_step + p0 * b.k_step, b, c, e,
                           last, p0 > 0, j);
    }
    for (; j < col0 + cols; j += kNR) {
      const int64_t q = j / kNR;
      const float* b_panel =
          b.data + (q - b.first) * b.panel_step + (kRowTable ? 0 : p0 * b.k_step);
      int64_t k_step = b.k_step;
      const int64_t tile_cols = c.cols - j < kNR ? c.cols - j : kNR;
      if (narrow_tail && q == last_col_panel) {
        b_panel = tail_panel;
        k_step = kNR;
      }
      float scale[kNR], shift[kNR];
      const sgemm::TileEpilogue tile_epilogue =
          last && e.any() ? tile_epilogue_of(e, i, j, tile_rows, tile_cols, scale, shift)
                          : sgemm::TileEpilogue{};
      sgemm::run_microkernel<kRowTable>(
          block, a_panel, height, b_panel, k_step, kRowTable ? b.rows + p0 : nullptr,
          c.data + i * c.row_stride + (kOutputs ? 0 : j), c.row_stride, tile_rows, tile_cols,
          p0 > 0, last && e.any() ? &tile_epilogue : nullptr,
          kOutputs ? &outputs[(j - col0) / kNR] : nullptr);
    }
  }
}

}  // namespace detail

// The tiles of columns [col0, col0 + cols) of c, split over the threads. Tiles are numbered
// down each column of tiles, and a thread's run of them is done one depth block at a time,
// so each block of b (kDepthBlock x kTileCols floats) is read from L2 by all the tiles of
// its column before the next block replaces it.
template <bool kRowTable = false>
inline void gemm_tiles(int64_t depth, const PanelsA& a, const PanelsB& b, const Matrix<float>& c,
                       const Epilogue& e, int64_t col0, int64_t cols) {
  // About kTileRowPanels panels of kMR rows whatever a's panel height: the same blocking.
  const int64_t tile_height = panels(kTileRowPanels * kMR, a.height) * a.height;
  const int64_t row_tiles = panels(c.rows, tile_height), col_tiles = panels(cols, kTileCols);
  const int64_t tile_rows = c.rows < tile_height ? c.rows : tile_height;
  const int64_t tile_cols = cols < kTileCols ? cols : kTileCols;
  // A tile per worker only when it is worth a wake-up (~2^17 multiply-adds).
  const int64_t work = tile_rows * tile_cols * (depth > 0 ? depth : 1);
  const int64_t grain = work >= (int64_t{1} << 17) ? 1 : ((int64_t{1} << 17) + work) / (work + 1);
  parallel_for(row_tiles * col_tiles, grain, [&](int64_t begin, int64_t end) {
    float tail_panel[kDepthBlock * kNR];  // only the in-place last panel uses it
    for (int64_t run = begin; run < end;) {
      const int64_t column = run / row_tiles;
      const int64_t run_end = (column + 1) * row_tiles < end ? (column + 1) * row_tiles : end;
      const int64_t col = col0 + column * kTileCols;
      const int64_t width = col0 + cols - col < kTileCols ? col0 + cols - col : kTileCols;
      for (int64_t p0 = 0; p0 < depth || p0 == 0; p0 += kDepthBlock) {
        for (int64_t t = run; t < run_end; ++t) {
          const int64_t row = t % row_tiles * tile_height;
          const int64_t rows = c.rows - row < tile_height ? c.rows - row : tile_height;
          detail::gemm_block<kRowTable>(depth, p0, a, b, c, e, row, rows, col, width, tail_panel);
        }
        if (p0 + kDepthBlock >= depth) break;
      }
      run = run_end;
    }
  });
}

// c = epilogue(a @ b), a packed in panels of a.height rows, b as `b` says; c row-major.
// Tiles split over the threads (Note [Packed GEMM]). With kRowTable, b is
// PanelsB::row_table's (and c a tap grid's with sgemm::kTapOutputs: Note [Tap outputs]).
template <bool kRowTable = false>
inline void gemm_packed(int64_t depth, const PanelsA& a, const PanelsB& b, const Matrix<float>& c,
                        const Epilogue& e) {
  if (c.rows > 0 && c.cols > 0) gemm_tiles<kRowTable>(depth, a, b, c, e, 0, c.cols);
}
// The same, a packed whole (pack_a: panels of panel_height(c.rows) rows).
template <bool kRowTable = false>
inline void gemm_packed(int64_t depth, const float* a, const PanelsB& b, const Matrix<float>& c,
                        const Epilogue& e) {
  gemm_packed<kRowTable>(depth, PanelsA{a, panel_height(c.rows)}, b, c, e);
}

// c = epilogue(a @ b) for any strides, c row-major: a and b packed per call into
// gemm_scratch() unless given packed (a_packed, b_packed: a constant operand prepared at
// load), b read in place when the product is too short to repay packing it (Note [Packed
// GEMM]). b is packed a column tile at a time, just before the products that read it, so
// its panels come from L2. Returns false when the scratch cannot be allocated.
inline bool gemm(const Matrix<const float>& a, const float* a_packed, const Matrix<const float>& b,
                 const float* b_packed, const Matrix<float>& c, const Epilogue& e) {
  if (c.rows <= 0 || c.cols <= 0) return true;
  const int64_t depth = a.cols, height = panel_height(c.rows);
  const bool pack_b_here =
      b_packed == nullptr && (!b.row_major() || c.rows > kInPlaceRowPanels * kMR);
  const int64_t a_floats = a_packed == nullptr ? packed_a_floats(c.rows, depth, height) : 0;
  const int64_t b_floats =
      pack_b_here ? packed_b_floats(depth, c.cols < kTileCols ? c.cols : kTileCols) : 0;
  float* scratch = nullptr;
  if (a_floats + b_floats > 0) {
    scratch = static_cast<float*>(gemm_scratch().get(sizeof(float) * (a_floats + b_floats)));
    if (scratch == nullptr) return false;
  }
  if (a_packed == nullptr) {
    parallel_for(panels(c.rows, height), 4, [&](int64_t first, int64_t last) {
      pack_a_panels(a, first, last, height, scratch);
    });
    a_packed = scratch;
  }
  const PanelsA a_panels{a_packed, height};
  if (!pack_b_here) {
    gemm_packed(depth, a_panels,
                b_packed != nullptr ? PanelsB::packed(b_packed, depth) : PanelsB::row_major(b), c,
                e);
    return true;
  }
  float* packed = scratch + a_floats;
  for (int64_t col0 = 0; col0 < c.cols; col0 += kTileCols) {
    const int64_t cols = c.cols - col0 < kTileCols ? c.cols - col0 : kTileCols;
    const Matrix<const float> block = b.block(0, col0, depth, cols);
    parallel_for(panels(cols, kNR), 4,
                 [&](int64_t first, int64_t last) { pack_b_panels(block, first, last, packed); });
    gemm_tiles(depth, a_panels, PanelsB::packed(packed, depth, col0 / kNR), c, e, col0, cols);
  }
  return true;
}

}  // namespace opt
