#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/conv_depthwise.h"
#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/gemm_packed.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/prepared_gemm.h"
#include "kernels/optimized/quantized_calls.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/window.h"
#include "kernels/portable/util/nn_conv.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

// Float convolution in three fast shapes, each over NCHW-like tensors whose pixels are dense
// (any batch and channel strides, as a contiguous tensor or a channel slice has):
// - depthwise (one input channel per group): 3x3 and 5x5 at stride 1 or 2 straight over the
//   input plane (Note [Direct depthwise], conv_depthwise_direct.h), other shapes over a
//   padded copy of it (Note [Padded depthwise], conv_depthwise.h);
// - 1x1, stride 1, no padding: per batch and group, out[Cout, H*W] = weight[Cout, Cin] x
//   input[Cin, H*W], one GEMM read straight from the tensors (the input's rows are b's
//   panels in place when the weight was packed at load);
// - any other layer whose stride is at most its kernel's reach: the input copied once into
//   zero-padded planes (one per stride phase), which the GEMM reads in place through a row
//   table, tap by tap (Note [Tap GEMM]);
// - a longer stride: per tile of output pixels, the input packed straight into the GEMM's
//   panels (Note [Implicit GEMM]), then one GEMM on them.
// The GEMMs are the packed GEMM's (gemm_packed.h), the bias their epilogue, a constant
// weight packed once at load (Note [Prepared GEMM operand]).
// What none of them covers (transposed convolution, pixels not dense, a permuted weight)
// runs portable's reference loops (kernels/portable/util/nn_conv.h): correct, slow.
// Each fast path applies a fused activation (Note [Fused epilogue],
// runtime/kernel/epilogue.h) to each block of output right after computing it; on the GEMM
// paths the bias and the activation are the GEMM's epilogue (Note [GEMM epilogue]).
namespace optimized {
namespace {

using conv::fill;
using conv::Layer;

constexpr const char* kOp = "aten::convolution.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Packed column tiles hold at most this many floats (256 KiB, about an L2) unless a tile of the
// minimum width needs more; the tile width depends only on the layer, never on the thread
// count, so every tile's GEMM (and its rounding) is the same however tiles are shared out.
constexpr int64_t kTileFloats = 64 * 1024;
constexpr int64_t kMinTileWidth = 64;
// Output columns per GEMM of the 1x1 path (no copy, so only the split matters).
constexpr int64_t kDirectTileWidth = 512;

// Note [Convolution work items]
// The GEMM paths split a layer into work items for the pool's threads: (batch, group, pixel
// tile), and when a layer has fewer than kFewItems of those (the 7x7 and 14x14 layers of
// an ImageNet net: one tile each) blocks of kRowBlock output channels too, so a second
// thread has work. Which split a layer gets depends on its shape alone, never on the
// thread count, and each output is one FMA chain whatever its block (Note [Packed GEMM]),
// so the bits are the same for any number of threads (Note [Threads]). A block starts on a
// panel of the packed weight (a multiple of kMR rows, about 32). A thread's consecutive row
// blocks of one tile share its packed columns. The layers that read their taps in place
// (Note [Tap GEMM]) have no columns to share: their tiles are cut narrower (down to one
// panel) until there are kFewItems of them, then their row panels into as many blocks as
// it takes to reach kFewItems (a 7x7 layer: 2 tiles of one panel, 4 row blocks).
constexpr int64_t kFewItems = 8;
constexpr int64_t kRowBlock = (32 + opt::kMR - 1) / opt::kMR * opt::kMR;

// Note [Implicit GEMM]
// The k x k path packs the GEMM's b operand straight from the input: columns [p0, p0 +
// width) of the im2col matrix of one batch and group (row kk = (ic, ky, kx) holds the input
// pixel each output pixel multiplies with that weight, 0 in padding) are written into the
// microkernel's panels (Note [Packed GEMM]: kNR columns each, depth-major), so the im2col
// copy and the panel packing are one pass, and the tile's GEMM reads them as they are.
// Panel q of the tile starts at panels + q * kNR * depth; row kk of it at + kk * kNR.
// Columns past `width` in the last panel are zeros (computed, never stored). A row is
// written an output row at a time (zeros for the padding, then the input's run). Only
// strides past the kernel's reach come here; the rest read taps in place (Note [Tap GEMM]).

// Calls put(dst, i, n) for the pieces of columns [c, c + count) of row `row` (its slot in
// panel 0) that lie in one panel each: dst the slot of column c + i, n <= kNR columns.
template <class Put>
inline void for_pieces(float* row, int64_t depth, int64_t c, int64_t count, Put&& put) {
  const int64_t panel_floats = opt::kNR * depth;
  int64_t q = c / opt::kNR, j = c % opt::kNR;
  for (int64_t i = 0; i < count; ++q, j = 0) {
    const int64_t n = std::min(count - i, opt::kNR - j);
    put(row + q * panel_floats + j, i, n);
    i += n;
  }
}

// dst[0, n) = src[0, n), and dst[0, n) = 0, for a piece of a panel row (n <= kNR) with
// vector moves, masked at the end where the instruction set can: a row of a 7x7 or 14x14
// layer is a few short pieces, and GCC makes a short memcpy of unknown size a `rep movsq`,
// whose start-up cost was most of ResNet's time in this pass.
inline void copy_piece(float* dst, const float* src, int64_t n) {
#if defined(__AVX512F__)
  for (; n >= 16; n -= 16, dst += 16, src += 16) _mm512_storeu_ps(dst, _mm512_loadu_ps(src));
  const auto mask = static_cast<__mmask16>((1u << n) - 1);
  if (n > 0) _mm512_mask_storeu_ps(dst, mask, _mm512_maskz_loadu_ps(mask, src));
#else
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) conv::store8(dst + j, conv::load8(src + j));
  for (; j < n; ++j) dst[j] = src[j];
#endif
}

// dst[j] = src[2 j] for j in [0, n): a stride-2 row's piece (the stems of ResNet and
// MobileNetV2). Reads src[0] to src[2 (n - 1)] only.
inline void take_even_piece(const float* src, int64_t n, float* dst) {
#if defined(__AVX512F__)
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  // By index: a pointer stepped past the row's last read would lie outside the input.
  for (int64_t j = 0; j < n; j += 16) {
    const int64_t left = n - j;
    const int64_t reads = std::min<int64_t>(32, 2 * left - 1);  // floats this step may read
    const auto low = static_cast<__mmask16>(reads >= 16 ? 0xffff : (1u << reads) - 1);
    const auto high = static_cast<__mmask16>(reads <= 16 ? 0 : (1u << (reads - 16)) - 1);
    const float* at = src + 2 * j;
    const float* upper = reads > 16 ? at + 16 : at;  // no read past 16: no pointer past it
    const __m512 v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(low, at), evens,
                                            _mm512_maskz_loadu_ps(high, upper));
    const auto out = static_cast<__mmask16>(left >= 16 ? 0xffff : (1u << left) - 1);
    _mm512_mask_storeu_ps(dst + j, out, v);
  }
#else
  conv::take_even(src, n, dst);
#endif
}

inline void zero_piece(float* dst, int64_t n) {
#if defined(__AVX512F__)
  for (; n >= 16; n -= 16, dst += 16) _mm512_storeu_ps(dst, _mm512_setzero_ps());
  if (n > 0) _mm512_mask_storeu_ps(dst, static_cast<__mmask16>((1u << n) - 1), _mm512_setzero_ps());
#else
  fill(dst, n, 0.0f);
#endif
}

void im2col_panels(const Layer& l, const float* x, int64_t p0, int64_t width, float* panels) {
  const int64_t depth = l.k();
  const int64_t oy0 = p0 / l.out_w, first0 = p0 % l.out_w;  // the tile's first output
  const int64_t padded = opt::panels(width, opt::kNR) * opt::kNR;
  auto zeros = [](float* dst, int64_t, int64_t n) { zero_piece(dst, n); };
  for (int64_t ic = 0; ic < l.cin_g; ++ic) {
    const float* plane = x + ic * l.x_c;
    for (int64_t ky = 0; ky < l.k_h; ++ky) {
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        float* row = panels + ((ic * l.k_h + ky) * l.k_w + kx) * opt::kNR;
        const int64_t offset = kx * l.dil_w - l.pad_w;
        int64_t lo, hi;
        opt::valid_outputs(offset, l.stride_w, l.in_w, l.out_w, &lo, &hi);
        // Walk the tile an output row at a time (no division per row).
        int64_t oy = oy0, first = first0;
        for (int64_t p = p0; p < p0 + width; ++oy, first = 0) {
          const int64_t last = std::min(l.out_w, first + (p0 + width - p));
          const int64_t c = p - p0;  // column of output (oy, first)
          const int64_t count = last - first;
          const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
          if (iy < 0 || iy >= l.in_h) {
            for_pieces(row, depth, c, count, zeros);
          } else {
            // a <= last also when a tile's piece of a row ends inside the left padding.
            const int64_t a = std::min(last, std::max(first, lo));
            const int64_t b = std::max(a, std::min(last, hi));
            for_pieces(row, depth, c, a - first, zeros);
            if (a < b) {
              // Input column of ox: ox * stride + offset, inside the row for ox in [a, b)
              // (for an empty piece the pointer would lie outside the input: not formed).
              const float* in = plane + iy * l.in_w + a * l.stride_w + offset;
              const int64_t at = c + (a - first);
              if (l.stride_w == 1) {
                for_pieces(row, depth, at, b - a,
                           [&](float* dst, int64_t i, int64_t n) { copy_piece(dst, in + i, n); });
              } else if (l.stride_w == 2) {
                for_pieces(row, depth, at, b - a, [&](float* dst, int64_t i, int64_t n) {
                  take_even_piece(in + 2 * i, n, dst);
                });
              } else {
                for_pieces(row, depth, at, b - a, [&](float* dst, int64_t i, int64_t n) {
                  for (int64_t j = 0; j < n; ++j) dst[j] = in[(i + j) * l.stride_w];
                });
              }
            }
            for_pieces(row, depth, c + (b - first), last - b, zeros);
          }
          p += count;
        }
        for_pieces(row, depth, width, padded - width, zeros);
      }
    }
  }
}

// The general and 1x1 paths: per (batch, group, pixel tile), out = weight x columns + bias,
// on the packed GEMM (kernels/optimized/gemm_packed.h; the bias is its epilogue), the
// weight's panels prepared at load when it is constant (Note [Prepared GEMM operand]).
// False when the scratch cannot be had.
bool gemm_conv(const Layer& l, bool one_by_one, const float* x, const float* w, const float* bias,
               const opt::PreparedGemm* packed, const rt::Epilogue& e, float* y) {
  const int64_t k = l.k(), pixels = l.pixels();
  // The k x k path's tiles are whole panels (Note [Implicit GEMM]).
  const int64_t tile =
      one_by_one ? kDirectTileWidth
                 : opt::panels(std::max(kMinTileWidth, kTileFloats / k), opt::kNR) * opt::kNR;
  const int64_t tiles = (pixels + tile - 1) / tile;
  // Note [Convolution work items]: blocks of output rows too when there are few tiles.
  const int64_t row_block = l.batch * l.groups * tiles >= kFewItems ? l.cout_g : kRowBlock;
  const int64_t row_blocks = (l.cout_g + row_block - 1) / row_block;
  bool ok = true;
  // Each thread packs its scratch once and keeps its columns from one claimed item to the next.
  opt::parallel_items(l.batch * l.groups * tiles * row_blocks, 1, [&](opt::WorkItems& items) {
    float* panels = nullptr;         // the tile's columns as b's panels
    float* weight_panels = nullptr;  // a weight not prepared at load, packed per work item
    if (!one_by_one) {
      const int64_t b_floats = opt::packed_b_floats(k, std::min(tile, pixels));
      const int64_t a_floats =
          packed == nullptr ? opt::packed_a_floats(std::min(row_block, l.cout_g), k) : 0;
      const size_t bytes = static_cast<size_t>(b_floats + a_floats) * sizeof(float);
      panels = static_cast<float*>(opt::thread_scratch().get(bytes));
      if (panels == nullptr) {
        ok = false;  // every writer stores false: no ordering needed
        return;
      }
      weight_panels = panels + b_floats;
    }
    int64_t columns_of = -1;  // the (batch, group, tile) whose columns `panels` holds
    for (int64_t begin, end; items.claim(begin, end);)
      for (int64_t item = begin; item < end; ++item) {
        const int64_t rb = item % row_blocks, tile_item = item / row_blocks;
        const int64_t t = tile_item % tiles, g = tile_item / tiles % l.groups;
        const int64_t n = tile_item / tiles / l.groups;
        const int64_t p0 = t * tile, width = std::min(tile, pixels - p0);
        const int64_t r0 = g * l.cout_g + rb * row_block,
                      rows = std::min(row_block, l.cout_g - rb * row_block);
        const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
        float* yr = y + n * l.y_n + r0 * l.y_c + p0;
        // w is null once a folded weight was packed and released (prepare.cpp, release_fused).
        const opt::Matrix<const float> weight{w != nullptr ? w + r0 * l.w_row : nullptr, rows, k,
                                              l.w_row, 1};
        const float* weight_packed =
            packed == nullptr ? nullptr
                              : packed->matrix(g) + rb * row_block * k;  // whole panels before
        const opt::Matrix<float> out{yr, rows, width, l.y_c, 1};
        opt::Epilogue epilogue;
        epilogue.by_rows = true;
        const bool in_gemm = bias == nullptr || l.bias_stride == 1;
        if (in_gemm) epilogue.active = e;
        if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + r0;
        if (one_by_one) {
          const opt::Matrix<const float> columns{xg + p0, k, width, l.x_c, 1};
          if (weight_packed != nullptr) {
            // The input's rows are b's panels as they are (Note [Packed GEMM]): no copy.
            opt::gemm_packed(k, weight_packed, opt::PanelsB::row_major(columns), out, epilogue);
          } else if (!opt::gemm(weight, nullptr, columns, nullptr, out, epilogue)) {
            ok = false;
          }
        } else {
          if (columns_of != tile_item) im2col_panels(l, xg, p0, width, panels);
          columns_of = tile_item;
          if (weight_packed == nullptr) {
            opt::pack_a(weight, weight_panels);
            weight_packed = weight_panels;
          }
          opt::gemm_packed(k, weight_packed, opt::PanelsB::packed(panels, k), out, epilogue);
        }
        // A bias with a stride: added after the product, then the activation.
        if (!in_gemm)
          finish_rows(yr, rows, width, l.y_c, bias + r0 * l.bias_stride, l.bias_stride, e);
      }
  });
  return ok;
}

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
// it (the next plane, or the zeros). Columns ox >= out_w of the grid are computed into the
// work item's scratch with the rest of its tile and never copied out (2 of 9 columns on a
// 7x7 layer, 2 of 58 on a 56x56 one, 3 of 115 on ResNet's stem). With no columns to build,
// a layer is split into column tiles and blocks of row panels as finely as its threads need
// (Note [Convolution work items]). A stride past the kernel's reach (phases the kernel never
// reads, and up to stride^2 of them) stays on the im2col path.
constexpr int64_t kTapTilePanels = 8;  // columns per tile at most: 256 with AVX-512

bool reads_taps(const Layer& l) {
  return l.stride_h <= (l.k_h - 1) * l.dil_h + 1 && l.stride_w <= (l.k_w - 1) * l.dil_w + 1;
}

struct TapGrid {
  int64_t w, plane, columns;  // a phase's row and plane, the GEMM's columns
};

TapGrid tap_grid(const Layer& l) {
  const int64_t w = opt::panels(l.in_w + 2 * l.pad_w, l.stride_w);
  const int64_t h = opt::panels(l.in_h + 2 * l.pad_h, l.stride_h);
  return TapGrid{w, h * w, (l.out_h - 1) * w + l.out_w};
}

// Phase row `row` (w floats) of phase column px: zeros, then the input row `in` (null: a
// padding row) at padded columns px + lo s_w to px + (hi - 1) s_w, then zeros.
void phase_row(const Layer& l, const TapGrid& grid, const float* in, int64_t px, int64_t lo,
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
void pad_channels(const Layer& l, const TapGrid& grid, const float* x, int64_t c0, int64_t c1,
                  float* padded) {
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

// Columns [j0, j0 + width) of the grid, `rows` rows of `tile` (row stride width), to the
// outputs they hold: y's rows y_c apart, each output row out_w wide.
void copy_out(const Layer& l, const TapGrid& grid, const float* tile, int64_t rows, int64_t j0,
              int64_t width, float* y) {
  for (int64_t oy = j0 / grid.w; oy * grid.w < j0 + width; ++oy) {
    const int64_t from = std::max(j0, oy * grid.w);
    const int64_t to = std::min(j0 + width, oy * grid.w + l.out_w);
    if (from >= to) continue;
    for (int64_t r = 0; r < rows; ++r)
      copy_piece(y + r * l.y_c + oy * l.out_w + (from - oy * grid.w), tile + r * width + from - j0,
                 to - from);
  }
}

// Note [Tap GEMM]. False when the scratch cannot be had.
bool tap_conv(const Layer& l, const float* x, const float* w, const float* bias,
              const opt::PreparedGemm* packed, const rt::Epilogue& e, float* y) {
  const int64_t k = l.k();
  const TapGrid grid = tap_grid(l);
  // Note [Convolution work items]: column tiles, and blocks of row panels when they are few.
  const int64_t col_panels = opt::panels(grid.columns, opt::kNR);
  const int64_t row_panels = opt::panels(l.cout_g, opt::kMR);
  const int64_t tile_panels = std::clamp<int64_t>(col_panels / kFewItems, 1, kTapTilePanels);
  const int64_t tile = tile_panels * opt::kNR, tiles = opt::panels(col_panels, tile_panels);
  const int64_t row_blocks = std::min(row_panels, opt::panels(kFewItems, tiles));
  const int64_t block_rows = std::min(l.cout_g, opt::panels(row_panels, row_blocks) * opt::kMR);
  // The row table, then the padded planes, in the calling thread's GEMM scratch: the work
  // items read them on every thread.
  const int64_t phases = l.stride_h * l.stride_w;
  const int64_t padded_floats = phases * l.cin_g * grid.plane + opt::kNR - 1;
  auto* table = static_cast<int64_t*>(
      opt::gemm_scratch().get(sizeof(int64_t) * static_cast<size_t>(k) +
                              sizeof(float) * static_cast<size_t>(padded_floats)));
  if (table == nullptr) return false;
  float* padded = reinterpret_cast<float*>(table + k);
  for (int64_t ic = 0; ic < l.cin_g; ++ic)
    for (int64_t ky = 0; ky < l.k_h; ++ky)
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        const int64_t dy = ky * l.dil_h, dx = kx * l.dil_w;
        const int64_t phase = dy % l.stride_h * l.stride_w + dx % l.stride_w;
        table[(ic * l.k_h + ky) * l.k_w + kx] =
            (phase * l.cin_g + ic) * grid.plane + dy / l.stride_h * grid.w + dx / l.stride_w;
      }
  zero_piece(padded + phases * l.cin_g * grid.plane, opt::kNR - 1);
  bool ok = true;
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t g = 0; g < l.groups; ++g) {
      const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
      opt::parallel_for(l.cin_g, std::max<int64_t>(1, 16384 / (phases * grid.plane)),
                        [&](int64_t c0, int64_t c1) { pad_channels(l, grid, xg, c0, c1, padded); });
      opt::parallel_items(tiles * row_blocks, 1, [&](opt::WorkItems& items) {
        const int64_t a_floats = packed == nullptr ? opt::packed_a_floats(block_rows, k) : 0;
        float* scratch = static_cast<float*>(opt::thread_scratch().get(
            sizeof(float) * static_cast<size_t>(block_rows * tile + a_floats)));
        if (scratch == nullptr) {
          ok = false;  // every writer stores false: no ordering needed
          return;
        }
        float* weight_panels = scratch + block_rows * tile;
        for (int64_t begin, end; items.claim(begin, end);)
          for (int64_t item = begin; item < end; ++item) {
            const int64_t rb = item % row_blocks, t = item / row_blocks;
            const int64_t first_panel = rb * row_panels / row_blocks;
            const int64_t r0 = first_panel * opt::kMR;
            const int64_t rows =
                std::min(l.cout_g, (rb + 1) * row_panels / row_blocks * opt::kMR) - r0;
            const int64_t j0 = t * tile, width = std::min(tile, grid.columns - j0);
            const int64_t channel = g * l.cout_g + r0;
            const float* weight_packed = packed == nullptr ? nullptr : packed->matrix(g) + r0 * k;
            if (weight_packed == nullptr) {
              // w is null only once a prepared weight was released (Note [Convolution path]).
              opt::pack_a(opt::Matrix<const float>{w + channel * l.w_row, rows, k, l.w_row, 1},
                          weight_panels);
              weight_packed = weight_panels;
            }
            opt::Epilogue epilogue;
            epilogue.by_rows = true;
            const bool in_gemm = bias == nullptr || l.bias_stride == 1;
            if (in_gemm) epilogue.active = e;
            if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + channel;
            opt::gemm_packed<true>(k, weight_packed, opt::PanelsB::row_table(padded + j0, table),
                                   opt::Matrix<float>{scratch, rows, width, width, 1}, epilogue);
            // A bias with a stride: added after the product, then the activation.
            if (!in_gemm)
              finish_rows(scratch, rows, width, width, bias + channel * l.bias_stride,
                          l.bias_stride, e);
            copy_out(l, grid, scratch, rows, j0, width, y + n * l.y_n + channel * l.y_c);
          }
      });
      if (!ok) return false;
    }
  }
  return true;
}

// The epilogue over every output element, after portable's loops.
void finish_strided(const portable::View4& v, const rt::Epilogue& e, float* y) {
  if (e.kind == rt::EpilogueKind::None) return;
  for (int64_t n = 0; n < v.size[0]; ++n)
    for (int64_t ch = 0; ch < v.size[1]; ++ch)
      for (int64_t i = 0; i < v.size[2]; ++i)
        for (int64_t j = 0; j < v.size[3]; ++j)
          finish_rows(y + n * v.stride[0] + ch * v.stride[1] + i * v.stride[2] + j * v.stride[3], 1,
                      1, 0, nullptr, 0, e);
}

// Note [Convolution path]
// Which of the paths above a layer takes. prepare() packs (or copies) a constant weight for
// it at load, and runtime/executor/prepare.cpp's release_fused then frees a folded weight's
// own data: convolve() must take the path the weight was prepared for, so both ask this one
// function.
enum class Path { Reference, Depthwise, OneByOne, Taps, ImplicitGemm };

Path path_of(const portable::ConvCall& c, const Layer& l) {
  if (c.transposed || l.k() <= 0 || !conv::dense_from(c.x, 2) || !conv::dense_from(c.y, 2) ||
      !conv::dense_from(c.w, 1))
    return Path::Reference;
  if (l.groups > 1 && l.cin_g == 1) return Path::Depthwise;
  const bool one_by_one = l.k_h == 1 && l.k_w == 1 && l.stride_h == 1 && l.stride_w == 1 &&
                          l.pad_h == 0 && l.pad_w == 0;
  if (one_by_one) return Path::OneByOne;
  return reads_taps(l) ? Path::Taps : Path::ImplicitGemm;
}

// The floats a depthwise layer reads of its weight (rows w_row apart).
int64_t depthwise_weight_floats(const Layer& l) {
  return (l.groups * l.cout_g - 1) * l.w_row + l.k();
}

// Note [Prepared GEMM operand]: a constant weight of a GEMM layer, each group's
// (cout_g x cin_g kh kw) matrix packed as a; a depthwise layer's copied as it is (its only
// gain: a weight made from constants, an int8 one dequantized, is made once).
void prepare(const rt::OpContext& in, const portable::ConvCall& c, const rt::Tensor& weight) {
  const Layer l = conv::layer_of(c);
  if (!in.context().constant_arg(1)) return;
  const Path path = path_of(c, l);
  bool ok = true;
  if (path == Path::Depthwise) {
    ok = opt::prepare_copy(in.context(), 1, weight.data_as<const float>(),
                           depthwise_weight_floats(l));
  } else if (path != Path::Reference) {
    const opt::Matrix<const float> w{weight.data_as<const float>(), l.cout_g, l.k(), l.w_row, 1};
    ok = opt::prepare_operand(in.context(), 1, opt::GemmSide::A, l.groups, w, l.cout_g * l.w_row);
  }
  if (!ok) in.fail("out of memory while preparing the weight");
}

void convolve(const rt::OpContext& in, const portable::ConvCall& c, const float* x, const float* w,
              const float* bias, const rt::Epilogue& e, float* y) {
  const Layer l = conv::layer_of(c);
  const Path path = path_of(c, l);
  if (path == Path::Reference) {
    if (c.transposed) {
      portable::transposed_convolution<float>(c, x, w, bias, y);
    } else {
      portable::convolution<float>(c, x, w, bias, y);
    }
    finish_strided(c.y, e, y);
    return;
  }
  if (path == Path::Depthwise) {
    const float* copy = opt::prepared_copy(in.context(), depthwise_weight_floats(l));
    if (!conv::depthwise(l, x, copy != nullptr ? copy : w, bias, e, y))
      in.fail("out of memory for the depthwise scratch");
    return;
  }
  const opt::PreparedGemm* packed =
      opt::prepared_operand(in.context(), opt::GemmSide::A, l.groups, l.cout_g, l.k());
  if (path == Path::Taps) {
    if (!tap_conv(l, x, w, bias, packed, e, y))
      in.fail("out of memory for the convolution's padded input");
  } else if (!gemm_conv(l, path == Path::OneByOne, x, w, bias, packed, e, y)) {
    in.fail("out of memory for the convolution's column panels");
  }
}

void convolution(rt::KernelContext& context, const rt::Tensor& input, const rt::Tensor& weight,
                 const rt::Tensor* bias, rt::IntList stride, rt::IntList padding,
                 rt::IntList dilation, bool transposed, rt::IntList output_padding, int64_t groups,
                 const rt::Epilogue& e, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  portable::ConvCall c;
  if (context.preparing()) {
    // A call that cannot be planned at load fails when it runs, as without preparation.
    const bool planned =
        Dtypes::kEnabled.contains(rt::ScalarType::Float) &&
        input.dtype() == rt::ScalarType::Float &&
        portable::plan_convolution(in, input, weight, bias, stride, padding, dilation, transposed,
                                   output_padding, groups, out, &c);
    context.clear();
    if (planned) prepare(in, c, weight);
    return;
  }
  if (!Dtypes::check(context, kOp, input.dtype())) return;
  if (!portable::plan_convolution(in, input, weight, bias, stride, padding, dilation, transposed,
                                  output_padding, groups, out, &c)) {
    return;
  }
  if (out.numel() == 0) return;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    static_assert(std::is_same<T, float>::value, "only Float is claimed");
    convolve(in, c, input.data_as<const float>(), weight.data_as<const float>(),
             bias != nullptr ? bias->data_as<const float>() : nullptr, e, out.data_as<float>());
  });
}

}  // namespace

// convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
//                 SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
rt::Tensor& convolution_out(rt::KernelContext& context, const rt::Tensor& input,
                            const rt::Tensor& weight, rt::Optional<rt::Tensor> bias_arg,
                            rt::IntList stride, rt::IntList padding, rt::IntList dilation,
                            bool transposed, rt::IntList output_padding, int64_t groups,
                            rt::Tensor& out) {
  convolution(context, input, weight, bias_arg.get(), stride, padding, dilation, transposed,
              output_padding, groups, rt::Epilogue{rt::EpilogueKind::None, 0.0f, 0.0f}, out);
  return out;
}

}  // namespace optimized

// Note [Fused epilogue]: the inputs of convolution.out, the epilogue, out, out.
void rt::fused::convolution(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::Tensor* bias = args[2]->is_none() ? nullptr : &args[2]->to_tensor();
  optimized::convolution(context, args[0]->to_tensor(), args[1]->to_tensor(), bias,
                         rt::IntList(args[3]->to_list()), rt::IntList(args[4]->to_list()),
                         rt::IntList(args[5]->to_list()), args[6]->to_bool(),
                         rt::IntList(args[7]->to_list()), args[8]->to_int(),
                         rt::read_epilogue(args, 9), args[9 + rt::kEpilogueValues]->to_tensor());
}

bool rt::fused::convolution_accepts(rt::Span<rt::EValue* const> args) {
  return optimized::Dtypes::kEnabled.contains(rt::ScalarType::Float) &&
         args[0]->to_tensor().dtype() == rt::ScalarType::Float && !args[6]->to_bool();
}
