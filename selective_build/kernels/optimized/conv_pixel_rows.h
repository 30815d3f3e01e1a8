#pragma once

// A 1x1 convolution over few pixels with the pixels as the GEMM's rows: Note [Pixels as
// rows].

#include <algorithm>
#include <cstdint>

#include "kernels/optimized/conv_layer.h"
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
constexpr int64_t kPixelRowsMargin = 8;  // percent: the packing and the transpose

// Rows of the microkernel's tiles a product of `rows` rows computes: whole panels, and a
// last one of the smaller instantiation (a power of two) that holds its rows.
inline int64_t computed_rows(int64_t rows) {
  const int64_t full = rows / opt::kMR * opt::kMR, left = rows - full;
  if (left == 0) return full;
  int64_t tile = 1;
  while (tile < left) tile *= 2;
  return full + std::min<int64_t>(tile, opt::kMR);
}

inline bool pixel_rows_pay(const Layer& l) {
  const int64_t pixels = l.pixels();
  const int64_t as_columns = computed_rows(l.cout_g) * opt::panels(pixels, opt::kNR) * opt::kNR;
  const int64_t as_rows = computed_rows(pixels) * opt::panels(l.cout_g, opt::kNR) * opt::kNR;
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

// Note [Pixels as rows]: the 1x1 layer `l` (stride 1, no padding), its weight packed at load
// as b (`packed`, or null: then w, read as weight^T, is packed per call). False when the
// scratch cannot be had.
inline bool pixel_rows_conv(const Layer& l, const float* x, const float* w, const float* bias,
                            const opt::PreparedGemm* packed, const rt::Epilogue& e, float* y) {
  const int64_t pixels = l.pixels(), k = l.k();
  float* product = static_cast<float*>(
      opt::thread_scratch().get(sizeof(float) * static_cast<size_t>(pixels * l.cout_g)));
  if (product == nullptr) return false;
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t g = 0; g < l.groups; ++g) {
      const int64_t c0 = g * l.cout_g;
      opt::Epilogue epilogue;  // per column: the column is the output channel
      const bool in_gemm = bias == nullptr || l.bias_stride == 1;
      if (in_gemm) epilogue.active = e;
      if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + c0;
      const opt::Matrix<const float> input_t{x + n * l.x_n + g * l.cin_g * l.x_c, pixels, k, 1,
                                             l.x_c};
      const opt::Matrix<const float> weight_t{w != nullptr ? w + c0 * l.w_row : nullptr, k,
                                              l.cout_g, 1, l.w_row};
      if (!opt::gemm(input_t, nullptr, weight_t, packed == nullptr ? nullptr : packed->matrix(g),
                     opt::Matrix<float>{product, pixels, l.cout_g, l.cout_g, 1}, epilogue))
        return false;
      float* out = y + n * l.y_n + c0 * l.y_c;
      // Blocks of 16 channels, spread over the threads: the product stays in this core's
      // L2 while its transposed copy streams out.
      opt::parallel_for(opt::panels(l.cout_g, 16), std::max<int64_t>(1, 4096 / pixels),
                        [&](int64_t first, int64_t last) {
                          const int64_t c = first * 16, cols = std::min(l.cout_g, last * 16) - c;
                          transpose_out(product + c, l.cout_g, pixels, cols, out + c * l.y_c,
                                        l.y_c);
                        });
      // A bias with a stride: added after the product, then the activation.
      if (!in_gemm)
        finish_rows(out, l.cout_g, pixels, l.y_c, bias + c0 * l.bias_stride, l.bias_stride, e);
    }
  }
  return true;
}

}  // namespace conv
}  // namespace optimized
