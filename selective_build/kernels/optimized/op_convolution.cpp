#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/conv_channels_last.h"
#include "kernels/optimized/conv_depthwise.h"
#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/conv_pixel_rows.h"
#include "kernels/optimized/conv_taps.h"
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
//   input plane (Note [Direct depthwise], conv_depthwise_direct.h) or, on narrow planes,
//   16 channels at once (Note [Depthwise channels as lanes], conv_depthwise_lanes.h), other
//   shapes over a padded copy of it (Note [Padded depthwise], conv_depthwise.h);
// - 1x1, stride 1, no padding: per batch and group, out[Cout, H*W] = weight[Cout, Cin] x
//   input[Cin, H*W], one GEMM read straight from the tensors (the input's rows are b's
//   panels in place when the weight was packed at load); over few pixels (7x7, 14x14, an
//   SE block's one) the pixels as the GEMM's rows and the product transposed into the
//   output (Note [Pixels as rows], conv_pixel_rows.h);
// - any other layer whose stride is at most its kernel's reach: the input copied once into
//   zero-padded planes (one per stride phase), which the GEMM reads in place through a row
//   table, tap by tap (Note [Tap GEMM]);
// - a longer stride: per tile of output pixels, the input packed straight into the GEMM's
//   panels (Note [Implicit GEMM]), then one GEMM on them.
// The GEMMs are the packed GEMM's (gemm_packed.h), the bias their epilogue, a constant
// weight packed once at load (Note [Prepared GEMM operand]).
// A layer whose input or out is channels last (Note [Channels last]) and that is no
// depthwise one: one indirect GEMM with the pixels as rows (Note [Channels-last GEMM],
// conv_channels_last.h), an NCHW input or out transposed into or out of scratch.
// What none of them covers (transposed convolution, pixels not dense, a permuted weight)
// runs portable's reference loops (kernels/portable/util/nn_conv.h): correct, slow.
// Each fast path applies a fused activation (Note [Fused epilogue],
// runtime/kernel/epilogue.h) to each block of output right after computing it; on the GEMM
// paths the bias and the activation are the GEMM's epilogue (Note [GEMM epilogue]).
namespace optimized {
namespace {

using conv::copy_piece;
using conv::fill;
using conv::kFewItems;
using conv::Layer;
using conv::take_even_piece;
using conv::zero_piece;

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
// panel of the packed weight (a multiple of its panel height, Note [Balanced row panels],
// about 32 rows: row_block_of). A thread's consecutive row
// blocks of one tile share its packed columns. The layers that read their taps in place
// (Note [Tap GEMM]) have no columns to share: their tiles are cut narrower (down to one
// panel) until there are kFewItems of them, then their row panels into as many blocks as
// it takes to reach kFewItems (a 7x7 layer: 2 tiles of one panel, 4 row blocks).
inline int64_t row_block_of(int64_t height) { return opt::panels(32, height) * height; }

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
  // The weight's panels are packed for the whole of each group's rows (Note [Balanced row
  // panels]), at load or below.
  const int64_t height = opt::panel_height(l.cout_g);
  const int64_t row_block =
      l.batch * l.groups * tiles >= kFewItems ? l.cout_g : row_block_of(height);
  const int64_t row_blocks = (l.cout_g + row_block - 1) / row_block;
  bool ok = true;
  // Each thread packs its scratch once and keeps its columns from one claimed item to the next.
  opt::parallel_items(l.batch * l.groups * tiles * row_blocks, 1, [&](opt::WorkItems& items) {
    float* panels = nullptr;         // the tile's columns as b's panels
    float* weight_panels = nullptr;  // a weight not prepared at load, packed per work item
    if (!one_by_one) {
      const int64_t b_floats = opt::packed_b_floats(k, std::min(tile, pixels));
      const int64_t a_floats =
          packed == nullptr ? opt::packed_a_floats(std::min(row_block, l.cout_g), k, height) : 0;
      const size_t bytes = static_cast<size_t>(b_floats + a_floats) * sizeof(float);
      panels = static_cast<float*>(opt::thread_scratch().get(bytes));
      if (panels == nullptr) {
        __atomic_store_n(&ok, false, __ATOMIC_RELAXED);  // threads may fail at once
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
        opt::PanelsA weight_packed{nullptr, height};
        if (packed != nullptr)
          weight_packed = packed->panels_a(g, rb * row_block * k);  // whole panels before
        const opt::Matrix<float> out{yr, rows, width, l.y_c, 1};
        opt::Epilogue epilogue;
        epilogue.by_rows = true;
        const bool in_gemm = bias == nullptr || l.bias_stride == 1;
        if (in_gemm) epilogue.active = e;
        if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + r0;
        if (one_by_one) {
          const opt::Matrix<const float> columns{xg + p0, k, width, l.x_c, 1};
          if (weight_packed.data != nullptr) {
            // The input's rows are b's panels as they are (Note [Packed GEMM]): no copy.
            opt::gemm_packed(k, weight_packed, opt::PanelsB::row_major(columns), out, epilogue);
          } else if (!opt::gemm(weight, nullptr, columns, nullptr, out, epilogue)) {
            __atomic_store_n(&ok, false, __ATOMIC_RELAXED);
          }
        } else {
          if (columns_of != tile_item) im2col_panels(l, xg, p0, width, panels);
          columns_of = tile_item;
          if (weight_packed.data == nullptr) {
            opt::pack_a(weight, weight_panels, height);
            weight_packed.data = weight_panels;
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
enum class Path {
  Reference,
  Depthwise,
  OneByOne,
  PixelRows,
  Taps,
  TapPixelRows,
  ImplicitGemm,
  ChannelsLast,
};

// Whether a layer's input (`x_last`) and out are read as channels last (Note
// [Channels-last GEMM]): a tensor whose pixels are dense is read as NCHW.
bool channels_last_input(const portable::ConvCall& c) { return !conv::dense_from(c.x, 2); }
bool channels_last_out(const portable::ConvCall& c) { return !conv::dense_from(c.y, 2); }

Path path_of(const portable::ConvCall& c, const Layer& l) {
  if (c.transposed || l.k() <= 0) return Path::Reference;
  const bool x_last = channels_last_input(c), y_last = channels_last_out(c);
  const bool depthwise = l.groups > 1 && l.cin_g == 1;
  if (x_last || y_last) {
    // Note [Channels-last depthwise]: a depthwise layer (no channel multiplier) over
    // channels-last input and out.
    if (depthwise)
      return l.cout_g == 1 && conv::dense_from(c.w, 1) && conv::channels_last_view(c.x) &&
                     conv::channels_last_view(c.y)
                 ? Path::Depthwise
                 : Path::Reference;
    const bool readable =
        (!x_last || conv::channels_last_view(c.x)) && (!y_last || conv::channels_last_view(c.y));
    return readable && conv::offsets_fit(conv::gemm_layer(l, x_last)) ? Path::ChannelsLast
                                                                      : Path::Reference;
  }
  if (!conv::dense_from(c.w, 1)) return Path::Reference;
  if (l.groups > 1 && l.cin_g == 1) return Path::Depthwise;
  const bool one_by_one = l.k_h == 1 && l.k_w == 1 && l.stride_h == 1 && l.stride_w == 1 &&
                          l.pad_h == 0 && l.pad_w == 0;
  if (one_by_one) return conv::pixel_rows_pay(l, false) ? Path::PixelRows : Path::OneByOne;
  if (!conv::reads_taps(l)) return Path::ImplicitGemm;
  return conv::pixel_rows_pay(l, true) ? Path::TapPixelRows : Path::Taps;
}

// The floats a depthwise layer reads of its weight (rows w_row apart).
int64_t depthwise_weight_floats(const Layer& l) {
  return (l.groups * l.cout_g - 1) * l.w_row + l.k();
}

// Note [Prepared GEMM operand]: a constant weight of a GEMM layer, each group's
// (cout_g x cin_g kh kw) matrix packed as a (transposed, as b, for Note [Pixels as rows]); a
// channels-last depthwise layer's laid out [tap][channel] (Note [Prepared depthwise taps]);
// an NCHW depthwise layer's copied as it is (its only gain: a weight made from constants, an
// int8 one dequantized, is made once).
void prepare(const rt::OpContext& in, const portable::ConvCall& c, const rt::Tensor& weight) {
  const Layer l = conv::layer_of(c);
  if (!in.context().constant_arg(1)) return;
  const Path path = path_of(c, l);
  bool ok = true;
  if (path == Path::Depthwise && conv::depthwise_channels_last(l)) {
    // Note [Prepared depthwise taps]: laid out [tap][channel] once.
    ok = opt::prepare_floats(in.context(), 1, l.groups * l.k_h * l.k_w, [&](float* taps) {
      conv::depthwise_taps(l, weight.data_as<const float>(), taps);
    });
  } else if (path == Path::Depthwise) {
    ok = opt::prepare_copy(in.context(), 1, weight.data_as<const float>(),
                           depthwise_weight_floats(l));
  } else if (path == Path::ChannelsLast) {
    ok = conv::prepare_channels_last(in.context(), l, channels_last_input(c), c.w,
                                     weight.data_as<const float>());
  } else if (path != Path::Reference) {
    const opt::Matrix<const float> w{weight.data_as<const float>(), l.cout_g, l.k(), l.w_row, 1};
    const bool as_b = path == Path::PixelRows || path == Path::TapPixelRows;
    ok = opt::prepare_operand(in.context(), 1, as_b ? opt::GemmSide::B : opt::GemmSide::A, l.groups,
                              as_b ? w.transposed() : w, l.cout_g * l.w_row);
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
  if (path == Path::Depthwise && conv::depthwise_channels_last(l)) {
    const float* taps = opt::prepared_copy(in.context(), l.groups * l.k_h * l.k_w);
    if (!conv::depthwise(l, x, w, bias, e, y, taps))
      in.fail("out of memory for the depthwise scratch");
    return;
  }
  if (path == Path::Depthwise) {
    const float* copy = opt::prepared_copy(in.context(), depthwise_weight_floats(l));
    if (!conv::depthwise(l, x, copy != nullptr ? copy : w, bias, e, y))
      in.fail("out of memory for the depthwise scratch");
    return;
  }
  if (path == Path::ChannelsLast) {
    const opt::PreparedGemm* packed =
        opt::prepared_operand(in.context(), opt::GemmSide::B, l.groups, l.k(), l.cout_g);
    if (!conv::channels_last_conv(l, channels_last_input(c), channels_last_out(c), c.w, x, w, bias,
                                  packed, e, y))
      in.fail("out of memory for the convolution's channels-last scratch");
    return;
  }
  if (path == Path::PixelRows || path == Path::TapPixelRows) {
    const opt::PreparedGemm* packed =
        opt::prepared_operand(in.context(), opt::GemmSide::B, l.groups, l.k(), l.cout_g);
    const bool ok = path == Path::PixelRows ? conv::pixel_rows_conv(l, x, w, bias, packed, e, y)
                                            : conv::pixel_rows_taps(l, x, w, bias, packed, e, y);
    if (!ok) in.fail("out of memory for the convolution's product");
    return;
  }
  const opt::PreparedGemm* packed =
      opt::prepared_operand(in.context(), opt::GemmSide::A, l.groups, l.cout_g, l.k());
  if (path == Path::Taps) {
    if (!conv::tap_conv(l, x, w, bias, packed, e, y))
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
