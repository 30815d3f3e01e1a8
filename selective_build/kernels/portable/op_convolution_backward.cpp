#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::convolution_backward.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Note [Convolution backward]
// The gradients of a 2-d convolution (not transposed, as ExecuTorch's portable
// kernel supports) y[b, o, h, w] = sum over the group's input channels i and
// the taps (kh, kw) of x[b, i, h s - p + kh d, w s - p + kw d] * weight[o, i, kh, kw]:
//   grad_bias[o]         = sum over b, h, w of dy[b, o, h, w]
//   grad_weight[o, i, kh, kw] = sum over b, h, w of dy[b, o, h, w] * x[b, i, ...]
//   grad_input[b, i, y, x]   = sum over the group's o and the taps that read
//                              (y, x) of dy[b, o, h, w] * weight[o, i, kh, kw]
// Each gradient element is gathered (not scattered) and summed in double, so
// nothing needs zeroing first and 16-bit dtypes round once.
struct ConvGeometry {
  int64_t batch, in_channels, out_channels, groups;
  int64_t in_h, in_w, out_h, out_w, k_h, k_w;
  int64_t stride[2], padding[2], dilation[2];
};

template <typename T>
double at4(const rt::Tensor& t, int64_t a, int64_t b, int64_t c, int64_t d) {
  return rt::value_cast<double>(
      t.data_as<const T>()[a * t.stride(0) + b * t.stride(1) + c * t.stride(2) + d * t.stride(3)]);
}

template <typename T>
void set4(rt::Tensor& t, int64_t a, int64_t b, int64_t c, int64_t d, double v) {
  t.data_as<T>()[a * t.stride(0) + b * t.stride(1) + c * t.stride(2) + d * t.stride(3)] =
      rt::value_cast<T>(v);
}

// The output position a tap reads input index `i` from along one axis, or -1.
inline int64_t tap_source(int64_t i, int64_t k, int64_t stride, int64_t padding, int64_t dilation,
                          int64_t out) {
  const int64_t shifted = i + padding - k * dilation;
  if (shifted < 0 || shifted % stride != 0) return -1;
  const int64_t o = shifted / stride;
  return o < out ? o : -1;
}

template <typename T>
void conv_backward(const ConvGeometry& g, const rt::Tensor& dy, const rt::Tensor& x,
                   const rt::Tensor& weight, rt::Tensor* grad_input, rt::Tensor* grad_weight,
                   rt::Tensor* grad_bias) {
  const int64_t icpg = g.in_channels / g.groups, ocpg = g.out_channels / g.groups;
  if (grad_bias != nullptr) {
    for (int64_t o = 0; o < g.out_channels; ++o) {
      double sum = 0;
      for (int64_t b = 0; b < g.batch; ++b) {
        for (int64_t h = 0; h < g.out_h; ++h) {
          for (int64_t w = 0; w < g.out_w; ++w) sum += at4<T>(dy, b, o, h, w);
        }
      }
      grad_bias->data_as<T>()[o * grad_bias->stride(0)] = rt::value_cast<T>(sum);
    }
  }
  if (grad_weight != nullptr) {
    for (int64_t o = 0; o < g.out_channels; ++o) {
      const int64_t first_in = (o / ocpg) * icpg;
      for (int64_t i = 0; i < icpg; ++i) {
        for (int64_t kh = 0; kh < g.k_h; ++kh) {
          for (int64_t kw = 0; kw < g.k_w; ++kw) {
            double sum = 0;
            for (int64_t b = 0; b < g.batch; ++b) {
              for (int64_t h = 0; h < g.out_h; ++h) {
                const int64_t ih = h * g.stride[0] - g.padding[0] + kh * g.dilation[0];
                if (ih < 0 || ih >= g.in_h) continue;
                for (int64_t w = 0; w < g.out_w; ++w) {
                  const int64_t iw = w * g.stride[1] - g.padding[1] + kw * g.dilation[1];
                  if (iw < 0 || iw >= g.in_w) continue;
                  sum += at4<T>(dy, b, o, h, w) * at4<T>(x, b, first_in + i, ih, iw);
                }
              }
            }
            set4<T>(*grad_weight, o, i, kh, kw, sum);
          }
        }
      }
    }
  }
  if (grad_input != nullptr) {
    for (int64_t b = 0; b < g.batch; ++b) {
      for (int64_t c = 0; c < g.in_channels; ++c) {
        const int64_t group = c / icpg, i = c % icpg;
        for (int64_t ih = 0; ih < g.in_h; ++ih) {
          for (int64_t iw = 0; iw < g.in_w; ++iw) {
            double sum = 0;
            for (int64_t kh = 0; kh < g.k_h; ++kh) {
              const int64_t h =
                  tap_source(ih, kh, g.stride[0], g.padding[0], g.dilation[0], g.out_h);
              if (h < 0) continue;
              for (int64_t kw = 0; kw < g.k_w; ++kw) {
                const int64_t w =
                    tap_source(iw, kw, g.stride[1], g.padding[1], g.dilation[1], g.out_w);
                if (w < 0) continue;
                for (int64_t o = group * ocpg; o < (group + 1) * ocpg; ++o) {
                  sum += at4<T>(dy, b, o, h, w) * at4<T>(weight, o, i, kh, kw);
                }
              }
            }
            set4<T>(*grad_input, b, c, ih, iw, sum);
          }
        }
      }
    }
  }
}

// Checks the geometry against the shapes (Note [Convolution backward]).
bool plan_conv_backward(const rt::OpContext& in, const rt::Tensor& dy, const rt::Tensor& x,
                        const rt::Tensor& weight, rt::IntList stride, rt::IntList padding,
                        rt::IntList dilation, int64_t groups, ConvGeometry* g) {
  if (x.dim() != 4 || weight.dim() != 4 || dy.dim() != 4) {
    in.fail("only 2-d convolution backward is supported (input, weight and grad_output of 4 dims)");
    return false;
  }
  if (!pair_arg(in, stride, 1, 1, true, g->stride) ||
      !pair_arg(in, padding, 0, 0, false, g->padding) ||
      !pair_arg(in, dilation, 1, 1, true, g->dilation)) {
    return false;
  }
  for (int d = 0; d < 2; ++d) {
    // Bounded so that the size arithmetic below cannot overflow.
    if (g->stride[d] > INT32_MAX || g->padding[d] > INT32_MAX || g->dilation[d] > INT32_MAX) {
      in.fail("stride, padding and dilation must fit in 32 bits");
      return false;
    }
  }
  g->batch = x.size(0);
  g->in_channels = x.size(1);
  g->in_h = x.size(2);
  g->in_w = x.size(3);
  g->out_channels = weight.size(0);
  g->k_h = weight.size(2);
  g->k_w = weight.size(3);
  g->groups = groups;
  if (groups <= 0 || g->in_channels % groups != 0 || g->out_channels % groups != 0 ||
      weight.size(1) * groups != g->in_channels) {
    in.fail(
        "groups must divide the channels, and weight must have in_channels / groups input "
        "channels");
    return false;
  }
  const int64_t sizes[2] = {g->in_h, g->in_w}, kernel[2] = {g->k_h, g->k_w};
  int64_t out[2];
  for (int d = 0; d < 2; ++d) {
    const int64_t room = sizes[d] + 2 * g->padding[d] - g->dilation[d] * (kernel[d] - 1) - 1;
    out[d] = room < 0 ? 0 : room / g->stride[d] + 1;
  }
  g->out_h = out[0];
  g->out_w = out[1];
  if (dy.size(0) != g->batch || dy.size(1) != g->out_channels || dy.size(2) != out[0] ||
      dy.size(3) != out[1]) {
    in.fail("grad_output must have the convolution's output shape");
    return false;
  }
  return true;
}

}  // namespace

// convolution_backward.out(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride,
//     SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups,
//     bool[3] output_mask, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
//     -> (Tensor(a!), Tensor(b!), Tensor(c!))
// out0, out1 and out2 are the gradients of input, weight and bias; one whose
// output_mask entry is false is left as it is.
void convolution_backward_out(rt::KernelContext& context, const rt::Tensor& grad_output,
                              const rt::Tensor& input, const rt::Tensor& weight,
                              rt::Optional<rt::IntList> bias_sizes, rt::IntList stride,
                              rt::IntList padding, rt::IntList dilation, bool transposed,
                              rt::IntList /*output_padding*/, int64_t groups,
                              rt::BoolList output_mask, rt::Tensor& out0, rt::Tensor& out1,
                              rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  const rt::ScalarType dtype = input.dtype();
  if (!Dtypes::check(context, kOp, dtype)) return;
  if (transposed)
    return in.fail("transposed convolution backward is not supported (as in ExecuTorch)");
  if (output_mask.size != 3) return in.fail("output_mask must have 3 entries");
  if (grad_output.dtype() != dtype || weight.dtype() != dtype) {
    return in.fail("grad_output and weight must have input's dtype");
  }
  ConvGeometry g;
  if (!plan_conv_backward(in, grad_output, input, weight, stride, padding, dilation, groups, &g))
    return;
  rt::Tensor* const outs[3] = {&out0, &out1, &out2};
  for (int k = 0; k < 3; ++k) {
    if (output_mask[k] != 0 && outs[k]->dtype() != dtype)
      return in.fail("the gradients must have input's dtype");
  }
  if (output_mask[2] != 0 && bias_sizes.has_value() &&
      (bias_sizes.value().size() != 1 || bias_sizes.value()[0] != g.out_channels)) {
    return in.fail("bias_sizes must be [out_channels]");
  }
  const int32_t bias_size[1] = {static_cast<int32_t>(g.out_channels)};
  if ((output_mask[0] != 0 && !resize_out(in, out0, input.sizes().data(), 4)) ||
      (output_mask[1] != 0 && !resize_out(in, out1, weight.sizes().data(), 4)) ||
      (output_mask[2] != 0 && !resize_out(in, out2, bias_size, 1))) {
    return;
  }
  Dtypes::run(context, kOp, dtype, [&](auto tag) {
    conv_backward<typename decltype(tag)::type>(
        g, grad_output, input, weight, output_mask[0] != 0 ? &out0 : nullptr,
        output_mask[1] != 0 ? &out1 : nullptr, output_mask[2] != 0 ? &out2 : nullptr);
  });
}

}  // namespace portable
