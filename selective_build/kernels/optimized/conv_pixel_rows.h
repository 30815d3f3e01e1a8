#pragma once

// A 1x1 convolution over few pixels with the pixels as the GEMM's rows: Note [Pixels as
// rows].

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/conv_taps.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/gemm_packed.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/prepared_gemm.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/transpose.h"
#include "runtime/kernel/epilogue.h"

namespace optimized {
namespace conv {

// Note [Pixels as rows]
// The 1x1 path's GEMM (out[Cout, P] = weight[Cout, Cin] x input[Cin, P]) has the pixels as
// its columns, computed kNR at a time, so a layer of few pixels computes a whole panel for a
// few of them: 49 pixels (a 7x7 map) cost 64 columns, 196 (14x14) cost 224, 100 frames of a
// 1-D net 128, and the one pixel of a squeeze-and-excitation block's 1x1 costs 32. Such a
// layer instead computes out^T[P, Cout] = input^T[P, Cin] x weight^T[Cin, Cout]: the
// pixels are the rows, which the microkernel takes in any number (its smaller
// instantiations), and the output channels the columns, which a conv net has in multiples
// of 16 or 32. The weight is packed at load as the GEMM's b (Note [Prepared GEMM operand]),
// the input's pixel panels per call (P x Cin floats), and the product, finished by the
// epilogue (the bias and activation per column), is transposed into the NCHW output. Each
// output is the same FMA chain in the order of the input channels either way, and the
// epilogue the same operations on it, so the bits do not change; `pixel_rows_pay` chooses
// by the work each orientation computes, padded rows and columns included.
// A layer that reads its taps in place (Note [Tap GEMM]) over few pixels does the same: its
// GEMM computes the padded grid's columns (a 7x7 map's 61, in 64), and as rows it takes the
// real pixels, the input's windows packed per call from the padded planes through the same
// row table (for each row of b, a vector copy per output row a panel's pixels lie in,
// counted in the choice). The 1-d speech net's 100 frames of 256 channels, ResNet's 7x7
// stage and SqueezeNet's 13x13 expansions take it.
constexpr int64_t kPixelRowsMargin = 8;  // percent: the transpose, and the packing's slack
constexpr int64_t kRunCost = 48;         // multiply-adds a copied run of a window costs

// Rows of the microkernel's tiles a product of `rows` rows computes: whole panels (Note
// [Balanced row panels]), and a last one of the smallest instantiation that holds its rows
// (sgemm::smaller_tile's chain).
inline int64_t computed_rows(int64_t rows) {
  const int64_t height = opt::panel_height(rows);
  const int64_t full = rows / height * height, left = rows - full;
  if (left == 0) return full;
  int tile = opt::kMR;
  while (tile > 1 && opt::sgemm::smaller_tile(tile) >= left) tile = opt::sgemm::smaller_tile(tile);
  return full + tile;
}

// Whether layer `l` (a 1x1, or with `taps` one that reads its taps in place) computes less
// with its pixels as the GEMM's rows: the work of each orientation over the depth, in
// multiply-adds per step of it.
inline bool pixel_rows_pay(const Layer& l, bool taps) {
  const int64_t pixels = l.pixels();
  const int64_t columns = taps ? tap_grid(l).columns : pixels;
  const int64_t as_columns = computed_rows(l.cout_g) * opt::panels(columns, opt::kNR) * opt::kNR;
  int64_t runs = 0;  // per row of b, the windows' copies (pack_windows)
  const int64_t height = opt::panel_height(pixels);
  for (int64_t p0 = 0; taps && p0 < pixels; p0 += height)
    runs += (std::min(pixels, p0 + height) - 1) / l.out_w - p0 / l.out_w + 1;
  const int64_t as_rows =
      computed_rows(pixels) * opt::panels(l.cout_g, opt::kNR) * opt::kNR + kRunCost * runs;
  return as_rows * (100 + kPixelRowsMargin) < as_columns * 100;
}

// y[c * y_c + p] = t[p * t_row + c] for p < rows, c < cols: the product's rows (pixels)
// into the output's channel planes.
inline void transpose_out(const float* t, int64_t t_row, int64_t rows, int64_t cols, float* y,
                          int64_t y_c) {
#if defined(__AVX512F__)
  constexpr int64_t kBlock = opt::kTransposeLanes;
  for (int64_t p = 0; p < rows; p += kBlock)
    for (int64_t c = 0; c < cols; c += kBlock)
      opt::transpose_block(t + p * t_row + c, t_row, static_cast<int>(std::min(kBlock, rows - p)),
                           static_cast<int>(std::min(kBlock, cols - c)), y + c * y_c + p, y_c);
#else
  constexpr int64_t kBlock = 8;  // a block's rows stay in L1 while its columns are written
  for (int64_t p0 = 0; p0 < rows; p0 += kBlock)
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t p = p0; p < std::min(rows, p0 + kBlock); ++p) y[c * y_c + p] = t[p * t_row + c];
#endif
}

// The product of one batch and group (pixels x cout_g, row-major, finished by the epilogue)
// into its channels of the output, blocks of 16 channels spread over the threads: the
// product stays in L2 while its transposed copy streams out. Then a bias with a stride, and
// the activation after it.
inline void store_pixel_rows(const Layer& l, const float* product, const float* bias, int64_t g,
                             const rt::Epilogue& e, float* out) {
  const int64_t pixels = l.pixels();
  opt::parallel_for(opt::panels(l.cout_g, 16), std::max<int64_t>(1, 4096 / pixels),
                    [&](int64_t first, int64_t last) {
                      const int64_t c = first * 16, cols = std::min(l.cout_g, last * 16) - c;
                      transpose_out(product + c, l.cout_g, pixels, cols, out + c * l.y_c, l.y_c);
                    });
  if (bias != nullptr && l.bias_stride != 1)
    finish_rows(out, l.cout_g, pixels, l.y_c, bias + g * l.cout_g * l.bias_stride, l.bias_stride,
                e);
}

// Group g's product of a (the pixels' panels, panel_height(pixels) rows each) and b (the
// weight's, k x cout_g), its epilogue per column (the output channel; a bias with a stride
// waits for store_pixel_rows), then stored. The work items are its column panels and, when
// those are fewer than kFewItems (ResNet's 64 channels: two), groups of its row panels too
// (Note [Convolution work items]): with the columns alone, a 14x14 layer of 64 channels ran
// on two threads no faster than on one. Which split a layer gets depends on its shape
// alone, and each output is the same FMA chain in any tile (Note [Packed GEMM]): the same
// bits for every thread count.
inline void pixel_rows_gemm(const Layer& l, int64_t g, const float* a, const float* b,
                            const float* bias, const rt::Epilogue& e, float* product, float* out) {
  const int64_t pixels = l.pixels(), k = l.k();
  opt::Epilogue epilogue;
  if (bias == nullptr || l.bias_stride == 1) epilogue.active = e;
  if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + g * l.cout_g;
  const int64_t height = opt::panel_height(pixels);
  const int64_t row_panels = opt::panels(pixels, height);
  const int64_t col_panels = opt::panels(l.cout_g, opt::kNR);
  const int64_t row_groups = std::clamp<int64_t>(opt::panels(kFewItems, col_panels), 1, row_panels);
  // An item per claim when it is worth a wake-up (~2^17 multiply-adds), as gemm_tiles.
  const int64_t work = computed_rows(pixels) / row_groups * opt::kNR * std::max<int64_t>(k, 1) + 1;
  const int64_t grain = work >= (int64_t{1} << 17) ? 1 : ((int64_t{1} << 17) + work - 1) / work;
  opt::parallel_for(col_panels * row_groups, grain, [&](int64_t first, int64_t last) {
    for (int64_t item = first; item < last; ++item) {
      const int64_t q = item % col_panels, group = item / col_panels;
      const int64_t r0 = group * row_panels / row_groups * height;
      const int64_t r1 = std::min(pixels, (group + 1) * row_panels / row_groups * height);
      const opt::Matrix<float> c{product + r0 * l.cout_g, r1 - r0, l.cout_g, l.cout_g, 1};
      const int64_t col0 = q * opt::kNR;
      opt::gemm_tiles(k, opt::PanelsA{a + r0 * k, height}, opt::PanelsB::packed(b, k), c, epilogue,
                      col0, std::min(l.cout_g, col0 + opt::kNR) - col0);
    }
  });
  store_pixel_rows(l, product, bias, g, e, out);
}

// The weight of group g as b: packed at load (`packed`), else packed here into `panels` from
// w read transposed.
inline const float* pixel_rows_weight(const Layer& l, int64_t g, const float* w,
                                      const opt::PreparedGemm* packed, float* panels) {
  if (packed != nullptr) return packed->matrix(g);
  opt::pack_b(opt::Matrix<const float>{w + g * l.cout_g * l.w_row, l.k(), l.cout_g, 1, l.w_row},
              panels);
  return panels;
}

// The scratch of a layer with its pixels as rows, in the kernels' (Note [Kernel scratch]):
// the pixels' panels, the weight's when it was not packed at load, and the product.
struct PixelRowsScratch {
  float* a;
  float* b;
  float* product;
};

inline bool pixel_rows_scratch(const Layer& l, const opt::PreparedGemm* packed,
                               PixelRowsScratch* s) {
  const int64_t a_floats = opt::packed_a_floats(l.pixels(), l.k());
  const int64_t b_floats = packed == nullptr ? opt::packed_b_floats(l.k(), l.cout_g) : 0;
  s->a = static_cast<float*>(opt::thread_scratch().get(
      sizeof(float) * static_cast<size_t>(a_floats + b_floats + l.pixels() * l.cout_g)));
  s->b = s->a + a_floats;
  s->product = s->b + b_floats;
  return s->a != nullptr;
}

// Note [Pixels as rows]: the 1x1 layer `l` (stride 1, no padding), its weight packed at load
// as b (`packed`, or null: then w, read as weight^T, is packed per call). False when the
// scratch cannot be had.
inline bool pixel_rows_conv(const Layer& l, const float* x, const float* w, const float* bias,
                            const opt::PreparedGemm* packed, const rt::Epilogue& e, float* y) {
  PixelRowsScratch s;
  if (!pixel_rows_scratch(l, packed, &s)) return false;
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t g = 0; g < l.groups; ++g) {
      // input^T: the pixels' rows are adjacent floats (Note [Packed GEMM]'s column-major a).
      const opt::Matrix<const float> input_t{x + n * l.x_n + g * l.cin_g * l.x_c, l.pixels(), l.k(),
                                             1, l.x_c};
      const int64_t height = opt::panel_height(l.pixels());
      opt::parallel_for(opt::panels(l.pixels(), height), 4, [&](int64_t first, int64_t last) {
        opt::pack_a_panels(input_t, first, last, height, s.a);
      });
      pixel_rows_gemm(l, g, s.a, pixel_rows_weight(l, g, w, packed, s.b), bias, e, s.product,
                      y + n * l.y_n + g * l.cout_g * l.y_c);
    }
  }
  return true;
}

// Row panel q of the windows (pixels as rows, `height` per panel; Note [Packed GEMM]): the
// panel's pixels at row kk of the taps (padded + table[kk] + grid column), copied an output
// row's run at a time; rows past the last pixel zero.
inline void pack_windows(const Layer& l, const TapGrid& grid, const float* padded,
                         const int64_t* table, int64_t height, int64_t q, float* panels) {
  const int64_t k = l.k(), p0 = q * height;
  const int64_t rows = std::min<int64_t>(height, l.pixels() - p0);
  float* dst = panels + q * height * k;
  if (rows < height) std::memset(dst, 0, sizeof(float) * height * k);
  for (int64_t i = 0; i < rows;) {
    const int64_t p = p0 + i, oy = p / l.out_w, ox = p % l.out_w;
    const int64_t run = std::min(rows - i, l.out_w - ox);
    const float* from = padded + oy * grid.w + ox;
    for (int64_t kk = 0; kk < k; ++kk) copy_piece(dst + kk * height + i, from + table[kk], run);
    i += run;
  }
}

// Note [Pixels as rows] for a layer that reads its taps (Note [Tap GEMM]): the input padded
// into its phases as tap_conv pads it, then the windows packed per call as a. False when the
// scratch cannot be had.
inline bool pixel_rows_taps(const Layer& l, const float* x, const float* w, const float* bias,
                            const opt::PreparedGemm* packed, const rt::Epilogue& e, float* y) {
  const int64_t k = l.k();
  const TapGrid grid = tap_grid(l);
  const int64_t phases = l.stride_h * l.stride_w;
  // The row table and the phases in the GEMM's scratch, as tap_conv keeps them.
  auto* table = static_cast<int64_t*>(
      opt::gemm_scratch().get(sizeof(int64_t) * static_cast<size_t>(k) +
                              sizeof(float) * static_cast<size_t>(phases * l.cin_g * grid.plane)));
  PixelRowsScratch s;
  if (table == nullptr || !pixel_rows_scratch(l, packed, &s)) return false;
  float* padded = reinterpret_cast<float*>(table + k);
  fill_tap_table(l, grid, table);
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t g = 0; g < l.groups; ++g) {
      const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
      opt::parallel_for(l.cin_g, std::max<int64_t>(1, 16384 / (phases * grid.plane)),
                        [&](int64_t c0, int64_t c1) { pad_channels(l, grid, xg, c0, c1, padded); });
      const int64_t height = opt::panel_height(l.pixels());
      opt::parallel_for(opt::panels(l.pixels(), height), 1, [&](int64_t first, int64_t last) {
        for (int64_t q = first; q < last; ++q) pack_windows(l, grid, padded, table, height, q, s.a);
      });
      pixel_rows_gemm(l, g, s.a, pixel_rows_weight(l, g, w, packed, s.b), bias, e, s.product,
                      y + n * l.y_n + g * l.cout_g * l.y_c);
    }
  }
  return true;
}

}  // namespace conv
}  // namespace optimized
