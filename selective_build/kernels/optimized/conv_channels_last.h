#pragma once

// A convolution over channels-last activations as one indirect GEMM: Note [Channels-last
// GEMM].

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/conv_pixel_rows.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/gemm_packed.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/prepared_gemm.h"
#include "kernels/optimized/scratch.h"
#include "kernels/portable/util/nn_conv.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/kernel_context.h"

namespace optimized {
namespace conv {

// Note [Channels-last GEMM]
// With its input and out channels last (Note [Channels last],
// runtime/executor/channels_last.h), a non-depthwise layer is one GEMM whose rows are the
// output pixels and whose columns the output channels: out[P, Cout] = epilogue(A[P, K] x
// W^T[K, Cout]), the bias and activation per column (Note [GEMM epilogue]). Row p of A is,
// tap by tap, the cin_g channels of the input pixel that tap reads (adjacent floats), or
// zeros where it falls in the padding: the depth is ordered (tap, input channel), and the
// weight is packed once at load as the GEMM's b in that order (prepare_channels_last). A is
// never built: per tile of kMR output pixels a table holds, for each tap, each row's offset
// (into the input, or -1: a row of zeros), and the microkernel broadcasts from them in place
// (Note [Indirect microkernel], sgemm_kernel.h). A 1x1 stride-1 layer is the case of one
// tap and the pixels one after another: the input read as it is. The offsets depend on the
// layer's shape alone, so they are made at load with the weight (prepared_bytes): made per
// call they cost a layer of 16 channels a quarter of its time. The work items are (group,
// block of pixel tiles, block of column panels), the blocks' sizes a function of the layer
// alone (Note [Convolution work items] in op_convolution.cpp), all in one parallel section;
// each output one FMA chain over the whole depth whatever the item: the same bits for any
// thread count. A mixed layer (a net's stem: an NCHW input, a channels-last out; or the
// last channels-last layer before an NCHW consumer) transposes its input into scratch
// first, or its product out of it after.
constexpr int64_t kPixelTilesPerItem = 8;  // kMR-pixel tiles per work item at most
constexpr int64_t kPanelsPerItem = 8;      // kNR-column panels per work item at most

// Note [Row taps]
// A layer of few input channels (a net's stem: 3) has a short run per tap (3 floats), and
// the microkernel then spends as much on taking its rows' pointers as on multiply-adds. In
// a copy of the input whose rows are zero-padded left and right, the k_w taps of one kernel
// row are adjacent pixels: one run of k_w x cin floats, which the depth's (tap, cin) order
// already has them in. Such a layer (one group, no dilation across) reads that copy as a
// layer of k_h taps over k_w x cin channels; the copy replaces the transpose a stem makes of
// its NCHW input anyway.
constexpr int64_t kRowTapsChannels = 8;

// Weight element (o, i, ky, kx) of a weight view.
inline int64_t weight_at(const portable::View4& w, int64_t o, int64_t i, int64_t ky, int64_t kx) {
  return o * w.stride[0] + i * w.stride[1] + ky * w.stride[2] + kx * w.stride[3];
}

// Group g's weight as the GEMM's b (depth (tap, cin) x cout_g columns, kNR-column panels
// as pack_b writes them), from `w` (any strides: an exported or a channels-last weight).
inline void pack_channels_last_weight(const Layer& l, const portable::View4& view, const float* w,
                                      int64_t g, float* packed) {
  const int64_t depth = l.k();
  for (int64_t q = 0; q < opt::panels(l.cout_g, opt::kNR); ++q) {
    float* dst = packed + q * opt::kNR * depth;
    const int64_t first = g * l.cout_g + q * opt::kNR;
    const int64_t cols = std::min<int64_t>(opt::kNR, l.cout_g - q * opt::kNR);
    for (int64_t ky = 0; ky < l.k_h; ++ky)
      for (int64_t kx = 0; kx < l.k_w; ++kx)
        for (int64_t ic = 0; ic < l.cin_g; ++ic, dst += opt::kNR) {
          for (int64_t j = 0; j < cols; ++j) dst[j] = w[weight_at(view, first + j, ic, ky, kx)];
          for (int64_t j = cols; j < opt::kNR; ++j) dst[j] = 0.0f;
        }
  }
}

// Tile rows [p0, p0 + rows) of the flattened output pixels (batch-major): for tap t, row i's
// input pixel at offsets[t * kMR + i] floats from the input's start (x_c == 1), or -1 in the
// padding (rows past `rows` too). One division per tile, the rows stepped from it.
inline void fill_offsets(const Layer& l, int64_t p0, int64_t rows, int32_t* offsets) {
  const int64_t pixels = l.pixels(), taps = l.k_h * l.k_w;
  int64_t n = p0 / pixels, oy = p0 % pixels / l.out_w, ox = p0 % l.out_w;
  for (int64_t i = 0; i < opt::kMR; ++i) {
    if (i >= rows) {
      for (int64_t t = 0; t < taps; ++t) offsets[t * opt::kMR + i] = -1;
      continue;
    }
    const int64_t y0 = oy * l.stride_h - l.pad_h, x0 = ox * l.stride_w - l.pad_w;
    for (int64_t ky = 0, t = 0; ky < l.k_h; ++ky) {
      const int64_t iy = y0 + ky * l.dil_h;
      for (int64_t kx = 0; kx < l.k_w; ++kx, ++t) {
        const int64_t ix = x0 + kx * l.dil_w;
        const bool inside = iy >= 0 && iy < l.in_h && ix >= 0 && ix < l.in_w;
        offsets[t * opt::kMR + i] =
            inside ? static_cast<int32_t>(n * l.x_n + (iy * l.in_w + ix) * l.x_p) : -1;
      }
    }
    if (++ox == l.out_w) {
      ox = 0;
      if (++oy == l.out_h) oy = 0, ++n;
    }
  }
}

// The offsets of every pixel tile of the GEMM's layer `l` (tile after tile, taps x kMR
// each): what the GEMM reads, whether made at load or per call.
inline int64_t offset_count(const Layer& l) {
  return opt::panels(l.batch * l.pixels(), opt::kMR) * l.k_h * l.k_w * opt::kMR;
}

inline void fill_all_offsets(const Layer& l, int32_t* offsets) {
  const int64_t all_pixels = l.batch * l.pixels(), tile = l.k_h * l.k_w * opt::kMR;
  for (int64_t p0 = 0, t = 0; p0 < all_pixels; p0 += opt::kMR, ++t)
    fill_offsets(l, p0, std::min<int64_t>(opt::kMR, all_pixels - p0), offsets + t * tile);
}

// Where a layer's GEMM runs: its input (channels last, x_c == 1), its output rows (pixel p of
// the flattened batch at out + p * out_row, channel c at + c), the weight's panels per group.
struct ChannelsLastGemm {
  const float* x;
  const float* zeros;      // cin_g zeros
  const int32_t* offsets;  // fill_all_offsets' (made at load), or null: filled per work item
  const float* weight;     // group g's panels at + g * packed_b_floats(k, cout_g)
  float* out;
  int64_t out_row;
};

// The GEMM of Note [Channels-last GEMM] over every batch and group, one parallel section.
// False when a thread's scratch cannot be had.
inline bool channels_last_gemm(const Layer& l, const ChannelsLastGemm& m, const float* bias,
                               const rt::Epilogue& e) {
  const int64_t taps = l.k_h * l.k_w, k = l.k(), all_pixels = l.batch * l.pixels();
  const int64_t pixel_tiles = opt::panels(all_pixels, opt::kMR);
  const int64_t col_panels = opt::panels(l.cout_g, opt::kNR);
  const int64_t col_blocks = opt::panels(col_panels, kPanelsPerItem);
  const int64_t block_panels = opt::panels(col_panels, col_blocks);
  // Blocks of pixel tiles: as many as it takes to have kFewItems items, of at most
  // kPixelTilesPerItem tiles.
  const int64_t blocks_wanted = opt::panels(kFewItems, l.groups * col_blocks);
  const int64_t block_tiles =
      std::clamp<int64_t>(opt::panels(pixel_tiles, blocks_wanted), 1, kPixelTilesPerItem);
  const int64_t row_blocks = opt::panels(pixel_tiles, block_tiles);
  const int64_t weight_floats = opt::packed_b_floats(k, l.cout_g);
  const bool in_gemm = bias == nullptr || l.bias_stride == 1;
  bool ok = true;
  opt::parallel_items(l.groups * row_blocks * col_blocks, 1, [&](opt::WorkItems& items) {
    int32_t* table = nullptr;  // the item's offsets when none were made at load
    if (m.offsets == nullptr) {
      table = static_cast<int32_t*>(opt::thread_scratch().get(
          sizeof(int32_t) * static_cast<size_t>(block_tiles * taps * opt::kMR)));
      if (table == nullptr) {
        __atomic_store_n(&ok, false, __ATOMIC_RELAXED);  // threads may fail at once
        return;
      }
    }
    for (int64_t begin, end; items.claim(begin, end);)
      for (int64_t item = begin; item < end; ++item) {
        const int64_t cb = item % col_blocks, rb = item / col_blocks % row_blocks;
        const int64_t g = item / col_blocks / row_blocks;
        const int64_t tile0 = rb * block_tiles;
        const int64_t tiles = std::min(block_tiles, pixel_tiles - tile0);
        const int32_t* offsets = m.offsets + tile0 * taps * opt::kMR;
        if (m.offsets == nullptr) {
          for (int64_t t = 0; t < tiles; ++t) {
            const int64_t p0 = (tile0 + t) * opt::kMR;
            fill_offsets(l, p0, std::min<int64_t>(opt::kMR, all_pixels - p0),
                         table + t * taps * opt::kMR);
          }
          offsets = table;
        }
        opt::Epilogue epilogue;  // the item's group's
        if (in_gemm) epilogue.active = e;
        if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + g * l.cout_g;
        const int64_t q1 = std::min(col_panels, (cb + 1) * block_panels);
        for (int64_t q = cb * block_panels; q < q1; ++q) {
          const int64_t j = q * opt::kNR, cols = std::min<int64_t>(opt::kNR, l.cout_g - j);
          const float* b = m.weight + g * weight_floats + q * opt::kNR * k;
          for (int64_t t = 0; t < tiles; ++t) {
            const int64_t p0 = (tile0 + t) * opt::kMR;
            const int64_t rows = std::min<int64_t>(opt::kMR, all_pixels - p0);
            float scale[opt::kNR], shift[opt::kNR];
            const opt::sgemm::TileEpilogue tile =
                opt::detail::tile_epilogue_of(epilogue, p0, j, rows, cols, scale, shift);
            opt::sgemm::run_indirect(taps, l.cin_g, offsets + t * taps * opt::kMR, opt::kMR,
                                     m.x + g * l.cin_g, m.zeros, b,
                                     m.out + p0 * m.out_row + g * l.cout_g + j, m.out_row, rows,
                                     cols, epilogue.any() ? &tile : nullptr);
            // A bias with a stride: added after the product, then the activation.
            for (int64_t i = 0; !in_gemm && i < rows; ++i)
              finish_rows(m.out + (p0 + i) * m.out_row + g * l.cout_g + j, cols, 1, 1,
                          bias + (g * l.cout_g + j) * l.bias_stride, l.bias_stride, e);
          }
        }
      }
  });
  return ok;
}

// Whether layer `l` reads its input through a copy whose rows are padded (Note [Row taps]).
inline bool reads_row_taps(const Layer& l) {
  return l.groups == 1 && l.k_w > 1 && l.dil_w == 1 && l.cin_g <= kRowTapsChannels;
}

// Channels [0, cin) of image rows [y0, y1) into `to` (channels last, each row pad_w
// pixels of zeros either side): from an NCHW input (x_last false) or a channels-last one.
inline void copy_padded_rows(const Layer& l, bool x_last, const float* x, int64_t cin, int64_t y0,
                             int64_t y1, float* to) {
  const int64_t row = (l.in_w + 2 * l.pad_w) * cin;
  to += y0 * row;
  for (int64_t iy = y0; iy < y1; ++iy, to += row) {
    zero_piece(to, l.pad_w * cin);
    zero_piece(to + (l.pad_w + l.in_w) * cin, l.pad_w * cin);
    if (x_last && l.x_p == cin) {
      std::memcpy(to + l.pad_w * cin, x + iy * l.in_w * cin, sizeof(float) * l.in_w * cin);
    } else if (x_last) {
      for (int64_t ix = 0; ix < l.in_w; ++ix)
        copy_piece(to + (l.pad_w + ix) * cin, x + (iy * l.in_w + ix) * l.x_p, cin);
    } else {
      transpose_out(x + iy * l.in_w, l.x_c, cin, l.in_w, to + l.pad_w * cin, cin);
    }
  }
}

// Layer `layer` as its GEMM reads it: from a copy when it reads row taps (Note [Row taps])
// or its input is NCHW (channels last, `cin` floats a pixel), as k_h taps of k_w cin_g
// channels with row taps.
inline Layer gemm_layer(const Layer& layer, bool x_last) {
  Layer l = layer;
  const int64_t cin = l.groups * l.cin_g;
  const bool row_taps = reads_row_taps(layer);
  if (row_taps) l.in_w += 2 * l.pad_w;
  if (row_taps || !x_last) {
    l.x_n = l.in_h * l.in_w * cin;
    l.x_c = 1;
    l.x_p = cin;
  }
  if (row_taps) {
    l.pad_w = 0;
    l.cin_g *= l.k_w;
    l.k_w = 1;
  }
  return l;
}

// Whether the input offsets of GEMM layer `l` fit fill_offsets' int32.
inline bool offsets_fit(const Layer& l) {
  return l.batch * std::max(l.x_n, l.in_h * l.in_w * l.x_p) < (int64_t{1} << 31);
}

// A constant weight prepared at load for this path: a PreparedGemm of side B (groups
// matrices of k() x cout_g, packed by pack_channels_last_weight; only this path's calls
// read it, Note [Convolution path]), then the GEMM layer it was made for and its offsets
// (fill_all_offsets): a layer of 16 channels spent a quarter of its time making them per
// call.
inline size_t prepared_bytes(const Layer& l, const Layer& gemm) {
  return sizeof(opt::PreparedGemm) +
         sizeof(float) * static_cast<size_t>(l.groups * opt::packed_b_floats(l.k(), l.cout_g)) +
         sizeof(Layer) + sizeof(int32_t) * static_cast<size_t>(offset_count(gemm));
}

inline const opt::PreparedGemm* write_prepared(void* memory, const Layer& l, const Layer& gemm,
                                               const portable::View4& view, const float* w) {
  auto* prepared =
      new (memory) opt::PreparedGemm{l.groups, l.k(), l.cout_g, opt::GemmSide::B, 0, opt::kNR};
  for (int64_t g = 0; g < l.groups; ++g)
    pack_channels_last_weight(l, view, w, g, const_cast<float*>(prepared->matrix(g)));
  auto* key = reinterpret_cast<char*>(const_cast<float*>(prepared->matrix(l.groups)));
  std::memcpy(key, &gemm, sizeof(Layer));
  fill_all_offsets(gemm, reinterpret_cast<int32_t*>(key + sizeof(Layer)));
  return prepared;
}

// The offsets prepared with `packed` when they were made for GEMM layer `gemm`, else null.
inline const int32_t* prepared_offsets(const opt::PreparedGemm* packed, const Layer& gemm) {
  if (packed == nullptr) return nullptr;
  const auto* key = reinterpret_cast<const char*>(packed->matrix(packed->batch));
  if (std::memcmp(key, &gemm, sizeof(Layer)) != 0) return nullptr;
  return reinterpret_cast<const int32_t*>(key + sizeof(Layer));
}

// While preparing: write_prepared's into memory of the method's lifetime. False when that
// cannot be had.
inline bool prepare_channels_last(rt::KernelContext& context, const Layer& l, bool x_last,
                                  const portable::View4& view, const float* w) {
  const Layer gemm = gemm_layer(l, x_last);
  void* memory = context.prepare(prepared_bytes(l, gemm), 1);
  if (memory == nullptr) return false;
  write_prepared(memory, l, gemm, view, w);
  return true;
}

// Note [Channels-last GEMM] for layer `l`, its input channels last or NCHW (`x_last`), its
// out likewise (`y_last`), at least one of them channels last; `packed` the weight prepared
// at load, or null (then `w`, through `view`, is packed here). False when the scratch
// cannot be had.
inline bool channels_last_conv(const Layer& layer, bool x_last, bool y_last,
                               const portable::View4& view, const float* x, const float* w,
                               const float* bias, const opt::PreparedGemm* packed,
                               const rt::Epilogue& e, float* y) {
  const Layer& o = layer;  // the call's layer; l below as its GEMM reads it
  const int64_t cin = o.groups * o.cin_g, cout = o.groups * o.cout_g;
  const int64_t all_pixels = o.batch * o.pixels();
  const bool row_taps = reads_row_taps(layer);
  const bool copy = row_taps || !x_last;
  const int64_t copy_w = row_taps ? o.in_w + 2 * o.pad_w : o.in_w;
  const int64_t weight_floats =
      packed == nullptr ? o.groups * opt::packed_b_floats(o.k(), o.cout_g) : 0;
  const int64_t input_floats = copy ? o.batch * o.in_h * copy_w * cin : 0;
  const int64_t product_floats = y_last ? 0 : all_pixels * cout;
  const int64_t zero_floats = opt::panels(o.cin_g * (row_taps ? o.k_w : 1), 16) * 16;
  // The calling thread's GEMM scratch: the work items use the kernels' (Note [Kernel
  // scratch]).
  auto* scratch = static_cast<float*>(
      opt::gemm_scratch().get(sizeof(float) * static_cast<size_t>(zero_floats + weight_floats +
                                                                  input_floats + product_floats)));
  if (scratch == nullptr) return false;
  float* zeros = scratch;
  float* weight = zeros + zero_floats;
  float* input = weight + weight_floats;
  float* product = input + input_floats;
  fill(zeros, zero_floats, 0.0f);
  if (packed == nullptr) {
    for (int64_t g = 0; g < o.groups; ++g)
      pack_channels_last_weight(o, view, w, g, weight + g * opt::packed_b_floats(o.k(), o.cout_g));
  }
  if (copy) {
    const int64_t image = o.in_h * copy_w * cin;
    if (row_taps) {
      opt::parallel_for(o.batch * o.in_h, 16, [&](int64_t first, int64_t last) {
        for (int64_t r = first; r < last;) {
          const int64_t n = r / o.in_h, y0 = r % o.in_h, y1 = std::min(o.in_h, y0 + last - r);
          copy_padded_rows(o, x_last, x + n * o.x_n, cin, y0, y1, input + n * image);
          r += y1 - y0;
        }
      });
    } else {
      for (int64_t n = 0; n < o.batch; ++n)
        transpose_out(x + n * o.x_n, o.x_c, cin, o.in_h * o.in_w, input + n * image, cin);
    }
    x = input;
  }
  const Layer l = gemm_layer(layer, x_last);
  // A one-pixel out's next pixel is its next batch.
  const int64_t out_row = !y_last ? cout : l.pixels() == 1 ? l.y_n : l.y_p;
  const ChannelsLastGemm m{x,
                           zeros,
                           prepared_offsets(packed, l),
                           packed != nullptr ? packed->matrix(0) : weight,
                           y_last ? y : product,
                           out_row};
  if (!channels_last_gemm(l, m, bias, e)) return false;
  if (!y_last) {
    // The product's pixels into the NCHW out's planes.
    const int64_t pixels = l.pixels();
    opt::parallel_for(l.batch * opt::panels(cout, 16), std::max<int64_t>(1, 4096 / pixels),
                      [&](int64_t first, int64_t last) {
                        for (int64_t item = first; item < last; ++item) {
                          const int64_t n = item / opt::panels(cout, 16);
                          const int64_t c = item % opt::panels(cout, 16) * 16;
                          transpose_out(product + n * pixels * cout + c, cout, pixels,
                                        std::min<int64_t>(16, cout - c), y + n * l.y_n + c * l.y_c,
                                        l.y_c);
                        }
                      });
  }
  return true;
}

}  // namespace conv
}  // namespace optimized
