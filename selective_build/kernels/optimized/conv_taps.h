#pragma once

// A convolution's GEMM reading its input in place, tap by tap: Note [Tap GEMM].

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/gemm_packed.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/prepared_gemm.h"
#include "kernels/optimized/scratch.h"
#include "runtime/kernel/epilogue.h"

namespace optimized {
namespace conv {

// Note [Tap GEMM]
// A layer whose stride is at most its kernel's reach (every layer of the conv nets) reads
// its input in place, tap by tap, instead of building im2col columns. Per batch and group
// the input is first copied, zero-padded, into phases: phase (py, px) of a channel holds
// the padded input's rows py, py + s_h, ... and columns px, px + s_w, ... (one phase at
// stride 1: the padded plane), h x w each, about the input's floats in all (1 / (k_h k_w) of
// im2col's), followed by kNR - 1 zeros. Output pixel (oy, ox) is column j = oy * w + ox of a
// GEMM over that grid: tap (ky, kx) reads padded row oy s_h + ky dil_h, which is row oy +
// ky dil_h / s_h of phase row ky dil_h % s_h, and likewise across, so row kk = (ic, ky, kx)
// of b (im2col's row) is one phase plane read in place from a fixed offset: a row table
// (PanelsB::row_table), and b is never copied. The rows keep im2col's order and the weight
// is packed as for it: every output is the same FMA chain as on the im2col path, padding's
// zeros included, so the two paths give the same bits. A tap's reads stay inside its
// plane up to the grid's last column; a panel's last reads go at most kNR - 1 floats past
// it (the next plane, or the zeros). Columns ox >= out_w of the grid are computed with the
// rest of their tile and never stored (2 of 9 columns on a 7x7 layer, 2 of 58 on a 56x56
// one, 3 of 115 on ResNet's stem): with AVX-512 the tiles store straight into the output
// (Note [Tap outputs], sgemm_kernel.h), elsewhere into a work item's dense tile, copied out. With no columns to build,
// a layer is split into column tiles and blocks of row panels as finely as its threads need
// (Note [Convolution work items]). A stride past the kernel's reach (phases the kernel never
// reads, and up to stride^2 of them) stays on the im2col path.
constexpr int64_t kTapTilePanels = 8;  // columns per tile at most: 256 with AVX-512

inline bool reads_taps(const Layer& l) {
  return l.stride_h <= (l.k_h - 1) * l.dil_h + 1 && l.stride_w <= (l.k_w - 1) * l.dil_w + 1;
}

struct TapGrid {
  int64_t w, plane, columns;  // a phase's row and plane, the GEMM's columns
};

inline TapGrid tap_grid(const Layer& l) {
  const int64_t w = opt::panels(l.in_w + 2 * l.pad_w, l.stride_w);
  const int64_t h = opt::panels(l.in_h + 2 * l.pad_h, l.stride_h);
  return TapGrid{w, h * w, (l.out_h - 1) * w + l.out_w};
}

// Phase row `row` (w floats) of phase column px: zeros, then the input row `in` (null: a
// padding row) at padded columns px + lo s_w to px + (hi - 1) s_w, then zeros.
inline void phase_row(const Layer& l, const TapGrid& grid, const float* in, int64_t px, int64_t lo,
                      int64_t hi, float* row) {
  if (in == nullptr) lo = hi = grid.w;
  zero_piece(row, lo);
  if (lo < hi) {
    const float* src = in + lo * l.stride_w + px - l.pad_w;
    if (l.stride_w == 1) {
      copy_piece(row + lo, src, hi - lo);
    } else if (l.stride_w == 2) {
      take_even_piece(src, hi - lo, row + lo);
    } else {
      for (int64_t q = lo; q < hi; ++q) row[q] = src[(q - lo) * l.stride_w];
    }
  }
  zero_piece(row + hi, grid.w - hi);
}

// Channels [c0, c1) of one batch and group's input x into their phases: phase (py, px) of
// channel c at padded + ((py s_w + px) cin_g + c) * plane.
inline void pad_channels(const Layer& l, const TapGrid& grid, const float* x, int64_t c0,
                         int64_t c1, float* padded) {
  const int64_t h = grid.plane / grid.w;
  for (int64_t px = 0; px < l.stride_w; ++px) {
    // Phase columns [lo, hi) hold input columns q s_w + px - pad_w in [0, in_w).
    const int64_t lo =
        std::min(grid.w, opt::panels(std::max<int64_t>(0, l.pad_w - px), l.stride_w));
    const int64_t last = l.pad_w + l.in_w - 1 - px;  // the last padded column inside, less px
    const int64_t hi = last < 0 ? lo : std::max(lo, std::min(grid.w, last / l.stride_w + 1));
    for (int64_t c = c0; c < c1; ++c)
      for (int64_t py = 0; py < l.stride_h; ++py) {
        float* plane = padded + ((py * l.stride_w + px) * l.cin_g + c) * grid.plane;
        for (int64_t t = 0, iy = py - l.pad_h; t < h; ++t, iy += l.stride_h) {
          const bool inside = iy >= 0 && iy < l.in_h;
          phase_row(l, grid, inside ? x + c * l.x_c + iy * l.in_w : nullptr, px, lo, hi,
                    plane + t * grid.w);
        }
      }
  }
}

// Without kTapOutputs: columns [j0, j0 + width) of the grid, `rows` rows of `tile` (row
// stride width), to the outputs they hold: y's rows y_c apart, each output row out_w wide.
inline void copy_out(const Layer& l, const TapGrid& grid, const float* tile, int64_t rows,
                     int64_t j0, int64_t width, float* y) {
  for (int64_t oy = j0 / grid.w; oy * grid.w < j0 + width; ++oy) {
    const int64_t from = std::max(j0, oy * grid.w);
    const int64_t to = std::min(j0 + width, oy * grid.w + l.out_w);
    if (from >= to) continue;
    for (int64_t r = 0; r < rows; ++r)
      copy_piece(y + r * l.y_c + oy * l.out_w + (from - oy * grid.w), tile + r * width + from - j0,
                 to - from);
  }
}

// The outputs of grid columns [j0, j0 + width): [*from, *to) of each output channel's plane
// (consecutive: Note [Tap outputs]), empty when the columns hold none.
inline void outputs_of(const Layer& l, const TapGrid& grid, int64_t j0, int64_t width,
                       int64_t* from, int64_t* to) {
  const int64_t first_row = j0 / grid.w, last = j0 + width - 1, last_row = last / grid.w;
  *from = j0 % grid.w < l.out_w ? first_row * l.out_w + j0 % grid.w : (first_row + 1) * l.out_w;
  *to = last_row * l.out_w + std::min(last % grid.w + 1, l.out_w);
  if (*to < *from) *to = *from;
}

// Row kk = (ic, ky, kx) of b: its offset in the phases (Note [Tap GEMM]), for each of the
// layer's k() rows.
inline void fill_tap_table(const Layer& l, const TapGrid& grid, int64_t* table) {
  for (int64_t ic = 0; ic < l.cin_g; ++ic)
    for (int64_t ky = 0; ky < l.k_h; ++ky)
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        const int64_t dy = ky * l.dil_h, dx = kx * l.dil_w;
        const int64_t phase = dy % l.stride_h * l.stride_w + dx % l.stride_w;
        table[(ic * l.k_h + ky) * l.k_w + kx] =
            (phase * l.cin_g + ic) * grid.plane + dy / l.stride_h * grid.w + dx / l.stride_w;
      }
}

// Note [Tap GEMM]. False when the scratch cannot be had.
inline bool tap_conv(const Layer& l, const float* x, const float* w, const float* bias,
                     const opt::PreparedGemm* packed, const rt::Epilogue& e, float* y) {
  const int64_t k = l.k();
  const TapGrid grid = tap_grid(l);
  // Note [Convolution work items]: column tiles, and blocks of row panels when they are few.
  const int64_t col_panels = opt::panels(grid.columns, opt::kNR);
  // The weight's panels are packed for each group's rows (Note [Balanced row panels]).
  const int64_t height = opt::panel_height(l.cout_g);
  const int64_t row_panels = opt::panels(l.cout_g, height);
  const int64_t tile_panels = std::clamp<int64_t>(col_panels / kFewItems, 1, kTapTilePanels);
  const int64_t tile = tile_panels * opt::kNR, tiles = opt::panels(col_panels, tile_panels);
  const int64_t row_blocks = std::min(row_panels, opt::panels(kFewItems, tiles));
  const int64_t block_rows = std::min(l.cout_g, opt::panels(row_panels, row_blocks) * height);
  // The row table, then the padded planes, in the calling thread's GEMM scratch: the work
  // items read them on every thread.
  const int64_t phases = l.stride_h * l.stride_w;
  const int64_t padded_floats = phases * l.cin_g * grid.plane + opt::kNR - 1;
  auto* table = static_cast<int64_t*>(
      opt::gemm_scratch().get(sizeof(int64_t) * static_cast<size_t>(k) +
                              sizeof(float) * static_cast<size_t>(padded_floats)));
  if (table == nullptr) return false;
  float* padded = reinterpret_cast<float*>(table + k);
  fill_tap_table(l, grid, table);
  zero_piece(padded + phases * l.cin_g * grid.plane, opt::kNR - 1);
  bool ok = true;
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t g = 0; g < l.groups; ++g) {
      const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
      opt::parallel_for(l.cin_g, std::max<int64_t>(1, 16384 / (phases * grid.plane)),
                        [&](int64_t c0, int64_t c1) { pad_channels(l, grid, xg, c0, c1, padded); });
      opt::parallel_items(tiles * row_blocks, 1, [&](opt::WorkItems& items) {
        // A dense tile when its outputs are copied out (Note [Tap outputs]), then a weight not
        // packed at load, packed per work item.
        const int64_t tile_floats = opt::sgemm::kTapOutputs ? 0 : block_rows * tile;
        const int64_t a_floats =
            packed == nullptr ? opt::packed_a_floats(block_rows, k, height) : 0;
        float* scratch = nullptr;
        if (tile_floats + a_floats > 0) {
          scratch = static_cast<float*>(opt::thread_scratch().get(
              sizeof(float) * static_cast<size_t>(tile_floats + a_floats)));
          if (scratch == nullptr) {
            __atomic_store_n(&ok, false, __ATOMIC_RELAXED);  // threads may fail at once
            return;
          }
        }
        for (int64_t begin, end; items.claim(begin, end);)
          for (int64_t item = begin; item < end; ++item) {
            const int64_t rb = item % row_blocks, t = item / row_blocks;
            const int64_t first_panel = rb * row_panels / row_blocks;
            const int64_t r0 = first_panel * height;
            const int64_t rows =
                std::min(l.cout_g, (rb + 1) * row_panels / row_blocks * height) - r0;
            const int64_t j0 = t * tile, width = std::min(tile, grid.columns - j0);
            const int64_t channel = g * l.cout_g + r0;
            opt::PanelsA weight_packed{nullptr, height};
            if (packed != nullptr) {
              weight_packed = packed->panels_a(g, r0 * k);
            } else {
              // Not packed at load, so w holds it (Note [Convolution path]).
              opt::pack_a(opt::Matrix<const float>{w + channel * l.w_row, rows, k, l.w_row, 1},
                          scratch + tile_floats, height);
              weight_packed.data = scratch + tile_floats;
            }
            opt::Epilogue epilogue;
            epilogue.by_rows = true;
            epilogue.grid_w = grid.w;
            epilogue.out_w = l.out_w;
            const bool in_gemm = bias == nullptr || l.bias_stride == 1;
            if (in_gemm) epilogue.active = e;
            if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + channel;
            float* out = y + n * l.y_n + channel * l.y_c;
            const float* channel_bias = bias == nullptr ? nullptr : bias + channel * l.bias_stride;
            if constexpr (opt::sgemm::kTapOutputs) {
              opt::gemm_tiles<true>(k, weight_packed, opt::PanelsB::row_table(padded, table),
                                    opt::Matrix<float>{out, rows, grid.columns, l.y_c, 1}, epilogue,
                                    j0, width);
              // A bias with a stride: added after the product, then the activation.
              if (!in_gemm) {
                int64_t from, to;
                outputs_of(l, grid, j0, width, &from, &to);
                finish_rows(out + from, rows, to - from, l.y_c, channel_bias, l.bias_stride, e);
              }
            } else {
              opt::gemm_packed<true>(k, weight_packed, opt::PanelsB::row_table(padded + j0, table),
                                     opt::Matrix<float>{scratch, rows, width, width, 1}, epilogue);
              if (!in_gemm)
                finish_rows(scratch, rows, width, width, channel_bias, l.bias_stride, e);
              copy_out(l, grid, scratch, rows, j0, width, out);
            }
          }
      });
      if (!ok) return false;
    }
  }
  return true;
}

}  // namespace conv
}  // namespace optimized
