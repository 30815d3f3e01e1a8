#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/conv_depthwise.h"
#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/window.h"
#include "kernels/portable/util/nn_conv.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
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
// What none of them covers (transposed convolution, pixels not dense, a permuted weight)
// runs portable's reference loops (kernels/portable/util/nn_conv.h): correct, slow.
namespace optimized {
namespace {

using conv::fill;
using conv::Layer;

constexpr const char* kOp = "aten::convolution.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstRows = Eigen::Map<const RowMatrix, Eigen::Unaligned, Eigen::OuterStride<>>;
using Rows = Eigen::Map<RowMatrix, Eigen::Unaligned, Eigen::OuterStride<>>;

// im2col tiles hold at most this many floats (256 KiB, about an L2) unless a tile of the
// minimum width needs more; the tile width depends only on the layer, never on the thread
// count, so every tile's GEMM (and its rounding) is the same however tiles are shared out.
constexpr int64_t kTileFloats = 64 * 1024;
constexpr int64_t kMinTileWidth = 64;
// Output columns per GEMM of the 1x1 path (no copy, so only the split matters).
constexpr int64_t kDirectTileWidth = 512;

// Out rows [0, rows) of one pixel block start as bias[oc0 + r] (or 0): the GEMM adds to them.
void start_with_bias(const Layer& l, const float* bias, int64_t oc0, float* y, int64_t rows,
                     int64_t width) {
  for (int64_t r = 0; r < rows; ++r)
    fill(y + r * l.y_c, width, bias != nullptr ? bias[(oc0 + r) * l.bias_stride] : 0.0f);
}

// Columns [p0, p0 + width) of the im2col matrix of one batch and group: row k = (ic, ky,
// kx) holds the input pixel each output pixel multiplies with that weight (0 in padding).
void im2col(const Layer& l, const float* x, int64_t p0, int64_t width, float* col) {
  for (int64_t ic = 0; ic < l.cin_g; ++ic) {
    const float* plane = x + ic * l.x_c;
    for (int64_t ky = 0; ky < l.k_h; ++ky) {
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        float* dst = col + ((ic * l.k_h + ky) * l.k_w + kx) * width;
        const int64_t offset = kx * l.dil_w - l.pad_w;
        int64_t lo, hi;
        opt::valid_outputs(offset, l.stride_w, l.in_w, l.out_w, &lo, &hi);
        // Walk the tile an output row at a time.
        for (int64_t p = p0; p < p0 + width;) {
          const int64_t oy = p / l.out_w, first = p % l.out_w;
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

// The general and 1x1 paths: per (batch, group, pixel tile), out = weight x columns.
// False when the scratch cannot be had.
bool gemm_conv(const Layer& l, bool one_by_one, const float* x, const float* w, const float* bias,
               float* y) {
  const int64_t k = l.k(), pixels = l.pixels();
  const int64_t tile = one_by_one ? kDirectTileWidth : std::max(kMinTileWidth, kTileFloats / k);
  const int64_t tiles = (pixels + tile - 1) / tile;
  bool ok = true;
  opt::parallel_for(l.batch * l.groups * tiles, 1, [&](int64_t begin, int64_t end) {
    float* col = nullptr;
    if (!one_by_one) {
      const size_t bytes = static_cast<size_t>(k * std::min(tile, pixels)) * sizeof(float);
      col = static_cast<float*>(opt::thread_scratch().get(bytes));
      if (col == nullptr) {
        ok = false;  // every writer stores false: no ordering needed
        return;
      }
    }
    for (int64_t item = begin; item < end; ++item) {
      const int64_t t = item % tiles, g = item / tiles % l.groups, n = item / tiles / l.groups;
      const int64_t p0 = t * tile, width = std::min(tile, pixels - p0);
      const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
      float* yg = y + n * l.y_n + g * l.cout_g * l.y_c + p0;
      const ConstRows weight(w + g * l.cout_g * l.w_row, l.cout_g, k,
                             Eigen::OuterStride<>(l.w_row));
      Rows out(yg, l.cout_g, width, Eigen::OuterStride<>(l.y_c));
      start_with_bias(l, bias, g * l.cout_g, yg, l.cout_g, width);
      if (one_by_one) {
        out.noalias() += weight * ConstRows(xg + p0, k, width, Eigen::OuterStride<>(l.x_c));
      } else {
        im2col(l, xg, p0, width, col);
        out.noalias() += weight * ConstRows(col, k, width, Eigen::OuterStride<>(width));
      }
    }
  });
  return ok;
}

void convolve(const rt::OpContext& in, const portable::ConvCall& c, const float* x, const float* w,
              const float* bias, float* y) {
  const Layer l = conv::layer_of(c);
  const bool fast = !c.transposed && l.k() > 0 && conv::dense_from(c.x, 2) &&
                    conv::dense_from(c.y, 2) && conv::dense_from(c.w, 1);
  if (!fast) {
    if (c.transposed) {
      portable::transposed_convolution<float>(c, x, w, bias, y);
    } else {
      portable::convolution<float>(c, x, w, bias, y);
    }
    return;
  }
  if (l.groups > 1 && l.cin_g == 1) {
    if (!conv::depthwise(l, x, w, bias, y)) in.fail("out of memory for the depthwise scratch");
    return;
  }
  const bool one_by_one = l.k_h == 1 && l.k_w == 1 && l.stride_h == 1 && l.stride_w == 1 &&
                          l.pad_h == 0 && l.pad_w == 0;
  if (!gemm_conv(l, one_by_one, x, w, bias, y)) in.fail("out of memory for the im2col scratch");
}

}  // namespace

// convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
//                 SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
rt::Tensor& convolution_out(rt::KernelContext& context, const rt::Tensor& input,
                            const rt::Tensor& weight, rt::Optional<rt::Tensor> bias_arg,
                            rt::IntList stride, rt::IntList padding, rt::IntList dilation,
                            bool transposed, rt::IntList output_padding, int64_t groups,
                            rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::Tensor* bias = bias_arg.get();
  if (!Dtypes::check(context, kOp, input.dtype())) return out;
  portable::ConvCall c;
  if (!portable::plan_convolution(in, input, weight, bias, stride, padding, dilation, transposed,
                                  output_padding, groups, out, &c)) {
    return out;
  }
  if (out.numel() == 0) return out;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    static_assert(std::is_same<T, float>::value, "only Float is claimed");
    convolve(in, c, input.data_as<const float>(), weight.data_as<const float>(),
             bias != nullptr ? bias->data_as<const float>() : nullptr, out.data_as<float>());
  });
  return out;
}

}  // namespace optimized
