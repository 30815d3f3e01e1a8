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
// - depthwise (one input channel per group): per plane, a padded copy of the input and one
//   vectorised run over the output with no bounds test (Note [Padded depthwise],
//   conv_depthwise.h);
// - 1x1, stride 1, no padding: per batch and group, out[Cout, H*W] = weight[Cout, Cin] x
//   input[Cin, H*W], one GEMM read straight from the tensors;
// - everything else: im2col into a per-thread scratch tile, then one GEMM per tile.
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

// im2col tiles hold at most this many floats (256 KiB, about an L2) unless a tile of the
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
// blocks of one tile share its im2col columns.
constexpr int64_t kFewItems = 8;
constexpr int64_t kRowBlock = (32 + opt::kMR - 1) / opt::kMR * opt::kMR;

// Columns [p0, p0 + width) of the im2col matrix of one batch and group: row k = (ic, ky,
// kx) holds the input pixel each output pixel multiplies with that weight (0 in padding).
void im2col(const Layer& l, const float* x, int64_t p0, int64_t width, float* col) {
  const int64_t oy0 = p0 / l.out_w, first0 = p0 % l.out_w;  // the tile's first output
  for (int64_t ic = 0; ic < l.cin_g; ++ic) {
    const float* plane = x + ic * l.x_c;
    for (int64_t ky = 0; ky < l.k_h; ++ky) {
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        float* dst = col + ((ic * l.k_h + ky) * l.k_w + kx) * width;
        const int64_t offset = kx * l.dil_w - l.pad_w;
        int64_t lo, hi;
        opt::valid_outputs(offset, l.stride_w, l.in_w, l.out_w, &lo, &hi);
        // Walk the tile an output row at a time (no division per row).
        int64_t oy = oy0, first = first0;
        for (int64_t p = p0; p < p0 + width; ++oy, first = 0) {
          const int64_t last = std::min(l.out_w, first + (p0 + width - p));
          float* out = dst + (p - p0);  // out[i] is column ox = first + i
          const int64_t count = last - first;
          const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
          if (iy < 0 || iy >= l.in_h) {
            fill(out, count, 0.0f);
          } else {
            const int64_t a = std::max(first, lo), b = std::max(a, std::min(last, hi));
            fill(out, a - first, 0.0f);
            // Input column of ox: ox * stride + offset, inside the row for ox in [a, b).
            const float* in_row = plane + iy * l.in_w;
            if (l.stride_w == 1) {
              std::memcpy(out + (a - first), in_row + (a + offset),
                          static_cast<size_t>(b - a) * sizeof(float));
            } else if (l.stride_w == 2) {
              conv::take_even(in_row + (2 * a + offset), b - a, out + (a - first));
            } else {
              for (int64_t ox = a; ox < b; ++ox) out[ox - first] = in_row[ox * l.stride_w + offset];
            }
            fill(out + (b - first), count - (b - first), 0.0f);
          }
          p += count;
        }
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
  const int64_t tile = one_by_one ? kDirectTileWidth : std::max(kMinTileWidth, kTileFloats / k);
  const int64_t tiles = (pixels + tile - 1) / tile;
  // Note [Convolution work items]: blocks of output rows too when there are few tiles.
  const int64_t row_block = l.batch * l.groups * tiles >= kFewItems ? l.cout_g : kRowBlock;
  const int64_t row_blocks = (l.cout_g + row_block - 1) / row_block;
  bool ok = true;
  opt::parallel_for(l.batch * l.groups * tiles * row_blocks, 1, [&](int64_t begin, int64_t end) {
    float* col = nullptr;
    if (!one_by_one) {
      const size_t bytes = static_cast<size_t>(k * std::min(tile, pixels)) * sizeof(float);
      col = static_cast<float*>(opt::thread_scratch().get(bytes));
      if (col == nullptr) {
        ok = false;  // every writer stores false: no ordering needed
        return;
      }
    }
    int64_t columns_of = -1;  // the (batch, group, tile) whose columns `col` holds
    for (int64_t item = begin; item < end; ++item) {
      const int64_t rb = item % row_blocks, tile_item = item / row_blocks;
      const int64_t t = tile_item % tiles, g = tile_item / tiles % l.groups;
      const int64_t n = tile_item / tiles / l.groups;
      const int64_t p0 = t * tile, width = std::min(tile, pixels - p0);
      const int64_t r0 = g * l.cout_g + rb * row_block,
                    rows = std::min(row_block, l.cout_g - rb * row_block);
      const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
      float* yr = y + n * l.y_n + r0 * l.y_c + p0;
      const opt::Matrix<const float> weight{w + r0 * l.w_row, rows, k, l.w_row, 1};
      const float* weight_packed =
          packed == nullptr ? nullptr
                            : packed->matrix(g) + rb * row_block * k;  // whole panels before
      const opt::Matrix<float> out{yr, rows, width, l.y_c, 1};
      opt::Epilogue epilogue;
      epilogue.by_rows = true;
      const bool in_gemm = bias == nullptr || l.bias_stride == 1;
      if (in_gemm) epilogue.active = e;
      if (bias != nullptr && l.bias_stride == 1) epilogue.shift = bias + r0;
      opt::Matrix<const float> columns{xg + p0, k, width, l.x_c, 1};
      if (!one_by_one) {
        if (columns_of != tile_item) im2col(l, xg, p0, width, col);
        columns_of = tile_item;
        columns = opt::Matrix<const float>{col, k, width, width, 1};
      }
      if (!opt::gemm(weight, weight_packed, columns, nullptr, out, epilogue)) ok = false;
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

// Whether the layer runs on the GEMM paths: not transposed, dense pixels, not depthwise.
bool on_gemm(const portable::ConvCall& c, const Layer& l) {
  return !c.transposed && l.k() > 0 && conv::dense_from(c.x, 2) && conv::dense_from(c.y, 2) &&
         conv::dense_from(c.w, 1) && !(l.groups > 1 && l.cin_g == 1);
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
  const bool depthwise = !c.transposed && l.k() > 0 && conv::dense_from(c.x, 2) &&
                         conv::dense_from(c.y, 2) && conv::dense_from(c.w, 1) && l.groups > 1 &&
                         l.cin_g == 1;
  bool ok = true;
  if (depthwise) {
    ok = opt::prepare_copy(in.context(), 1, weight.data_as<const float>(),
                           depthwise_weight_floats(l));
  } else if (on_gemm(c, l)) {
    const opt::Matrix<const float> w{weight.data_as<const float>(), l.cout_g, l.k(), l.w_row, 1};
    ok = opt::prepare_operand(in.context(), 1, opt::GemmSide::A, l.groups, w, l.cout_g * l.w_row);
  }
  if (!ok) in.fail("out of memory while preparing the weight");
}

void convolve(const rt::OpContext& in, const portable::ConvCall& c, const float* x, const float* w,
              const float* bias, const rt::Epilogue& e, float* y) {
  const Layer l = conv::layer_of(c);
  const bool fast = !c.transposed && l.k() > 0 && conv::dense_from(c.x, 2) &&
                    conv::dense_from(c.y, 2) && conv::dense_from(c.w, 1);
  if (!fast) {
    if (c.transposed) {
      portable::transposed_convolution<float>(c, x, w, bias, y);
    } else {
      portable::convolution<float>(c, x, w, bias, y);
    }
    finish_strided(c.y, e, y);
    return;
  }
  if (l.groups > 1 && l.cin_g == 1) {
    const float* copy = opt::prepared_copy(in.context(), depthwise_weight_floats(l));
    if (!conv::depthwise(l, x, copy != nullptr ? copy : w, bias, e, y))
      in.fail("out of memory for the depthwise scratch");
    return;
  }
  const bool one_by_one = l.k_h == 1 && l.k_w == 1 && l.stride_h == 1 && l.stride_w == 1 &&
                          l.pad_h == 0 && l.pad_w == 0;
  const opt::PreparedGemm* packed =
      opt::prepared_operand(in.context(), opt::GemmSide::A, l.groups, l.cout_g, l.k());
  if (!gemm_conv(l, one_by_one, x, w, bias, packed, e, y))
    in.fail("out of memory for the im2col scratch");
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
