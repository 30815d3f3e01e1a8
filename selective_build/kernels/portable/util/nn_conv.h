#pragma once

#include <cstdint>

#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel_args.h"

// The convolution's argument checks and its reference loops, shared by the portable kernel
// and the optimized one (which falls back to these loops for what its fast paths skip).
namespace portable {

// A 3-D (N, C, L) or 4-D (N, C, H, W) tensor seen as 4-D: a 1-d one has H = 1.
struct View4 {
  int64_t size[4] = {};
  int64_t stride[4] = {};

  View4() = default;
  explicit View4(const rt::Tensor& t) {
    const bool one_d = t.dim() == 3;
    for (int d = 0, s = 0; d < 4; ++d) {
      if (one_d && d == 2) {
        size[d] = 1;
        stride[d] = 0;
        continue;
      }
      size[d] = t.size(s);
      stride[d] = t.stride(s);
      ++s;
    }
  }
  int64_t at(int64_t a, int64_t b, int64_t c, int64_t d) const {
    return a * stride[0] + b * stride[1] + c * stride[2] + d * stride[3];
  }
};

struct ConvCall {
  View4 x, w, y;
  int64_t bias_stride;  // bias elements are at c * bias_stride
  int64_t stride[2], padding[2], dilation[2];
  int64_t groups;
  bool transposed;
};

template <typename T>
void convolution(const ConvCall& c, const T* x, const T* w, const T* bias, T* y) {
  using M = opmath_t<T>;
  const int64_t in_per_group = c.w.size[1];
  const int64_t out_per_group = c.y.size[1] / c.groups;
  for (int64_t n = 0; n < c.y.size[0]; ++n) {
    for (int64_t oc = 0; oc < c.y.size[1]; ++oc) {
      const int64_t first_ic = oc / out_per_group * in_per_group;
      for (int64_t oh = 0; oh < c.y.size[2]; ++oh) {
        for (int64_t ow = 0; ow < c.y.size[3]; ++ow) {
          M sum = bias != nullptr ? static_cast<M>(bias[oc * c.bias_stride]) : M(0);
          for (int64_t ic = 0; ic < in_per_group; ++ic) {
            for (int64_t kh = 0; kh < c.w.size[2]; ++kh) {
              const int64_t ih = oh * c.stride[0] - c.padding[0] + kh * c.dilation[0];
              if (ih < 0 || ih >= c.x.size[2]) continue;
              for (int64_t kw = 0; kw < c.w.size[3]; ++kw) {
                const int64_t iw = ow * c.stride[1] - c.padding[1] + kw * c.dilation[1];
                if (iw < 0 || iw >= c.x.size[3]) continue;
                // Integers wrap like torch's (op_add, op_mul): no signed-overflow UB.
                sum = op_add(sum, op_mul(static_cast<M>(x[c.x.at(n, first_ic + ic, ih, iw)]),
                                         static_cast<M>(w[c.w.at(oc, ic, kh, kw)])));
              }
            }
          }
          y[c.y.at(n, oc, oh, ow)] = rt::value_cast<T>(sum);
        }
      }
    }
  }
}

// The transposed convolution (the gradient of `convolution` with respect to its input):
// input (N, C_in, H, W), weight (C_in, C_out / groups, kH, kW). Each input pixel spreads
// over the output at ih * stride - padding + kh * dilation; computed here output by output
// (a gather over the input pixels that land on it), so every output is written once and
// accumulates in opmath like the direct convolution above.
template <typename T>
void transposed_convolution(const ConvCall& c, const T* x, const T* w, const T* bias, T* y) {
  using M = opmath_t<T>;
  const int64_t out_per_group = c.w.size[1];
  const int64_t in_per_group = c.x.size[1] / c.groups;
  for (int64_t n = 0; n < c.y.size[0]; ++n) {
    for (int64_t oc = 0; oc < c.y.size[1]; ++oc) {
      const int64_t first_ic = oc / out_per_group * in_per_group;
      const int64_t woc = oc % out_per_group;
      for (int64_t oh = 0; oh < c.y.size[2]; ++oh) {
        for (int64_t ow = 0; ow < c.y.size[3]; ++ow) {
          M sum = bias != nullptr ? static_cast<M>(bias[oc * c.bias_stride]) : M(0);
          for (int64_t ic = 0; ic < in_per_group; ++ic) {
            for (int64_t kh = 0; kh < c.w.size[2]; ++kh) {
              const int64_t th = oh + c.padding[0] - kh * c.dilation[0];
              if (th < 0 || th % c.stride[0] != 0 || th / c.stride[0] >= c.x.size[2]) continue;
              const int64_t ih = th / c.stride[0];
              for (int64_t kw = 0; kw < c.w.size[3]; ++kw) {
                const int64_t tw = ow + c.padding[1] - kw * c.dilation[1];
                if (tw < 0 || tw % c.stride[1] != 0 || tw / c.stride[1] >= c.x.size[3]) continue;
                const int64_t iw = tw / c.stride[1];
                sum = op_add(sum, op_mul(static_cast<M>(x[c.x.at(n, first_ic + ic, ih, iw)]),
                                         static_cast<M>(w[c.w.at(first_ic + ic, woc, kh, kw)])));
              }
            }
          }
          y[c.y.at(n, oc, oh, ow)] = rt::value_cast<T>(sum);
        }
      }
    }
  }
}

// A 1-d parameter list of one entry, or a 2-d one (one entry serves both).
inline bool conv_params(const rt::OpContext& in, rt::IntList list, bool one_d, bool positive,
                        int64_t fallback, int64_t* pair) {
  if (!pair_arg(in, list, fallback, fallback, positive, pair)) return false;
  if (one_d) {
    pair[1] = pair[0];
    pair[0] = positive ? 1 : 0;
  }
  return true;
}

// Checks a convolution call the way torch does (ranks, groups, bias, parameter lists,
// output extent) and resizes `out`; false after failing through `in`. Dtypes are the
// caller's: each library checks the ones it supports first.
__attribute__((noinline)) inline bool plan_convolution(
    const rt::OpContext& in, const rt::Tensor& input, const rt::Tensor& weight,
    const rt::Tensor* bias, rt::IntList stride, rt::IntList padding, rt::IntList dilation,
    bool transposed, rt::IntList output_padding, int64_t groups, rt::Tensor& out, ConvCall* call) {
  const rt::ScalarType dtype = input.dtype();
  if (weight.dtype() != dtype || out.dtype() != dtype ||
      (bias != nullptr && bias->dtype() != dtype)) {
    in.fail("input, weight, bias and out must have one dtype");
    return false;
  }
  const int rank = input.dim();
  if ((rank != 3 && rank != 4) || weight.dim() != rank) {
    in.fail("input and weight must be 3-D (1-d convolution) or 4-D (2-d convolution)");
    return false;
  }
  const bool one_d = rank == 3;
  *call = ConvCall{View4(input), View4(weight), View4(input), 0, {}, {}, {}, groups, transposed};
  ConvCall& c = *call;
  int64_t extra[2];  // output_padding: transposed only, added to the bottom and right
  if (!conv_params(in, stride, one_d, true, 1, c.stride) ||
      !conv_params(in, padding, one_d, false, 0, c.padding) ||
      !conv_params(in, dilation, one_d, true, 1, c.dilation) ||
      !conv_params(in, output_padding, one_d, false, 0, extra)) {
    return false;
  }
  // Direct: weight is (C_out, C_in / groups, ...); transposed: (C_in, C_out / groups, ...).
  const int64_t channels = c.x.size[1];
  const int64_t out_channels = transposed ? c.w.size[1] * groups : c.w.size[0];
  const bool groups_fit =
      groups >= 1 && channels % groups == 0 &&
      (transposed ? c.w.size[0] == channels
                  : out_channels % groups == 0 && c.w.size[1] * groups == channels);
  if (!groups_fit) {
    in.fail("groups must divide the channels of input and weight");
    return false;
  }
  if (bias != nullptr && (bias->dim() != 1 || bias->size(0) != out_channels)) {
    in.fail("bias must have one entry per output channel");
    return false;
  }
  int32_t sizes[4] = {input.size(0), static_cast<int32_t>(out_channels), 1, 1};
  for (int d = 0; d < 2; ++d) {
    const int64_t span = c.dilation[d] * (c.w.size[2 + d] - 1) + 1;
    if (transposed) {
      // torch's rule: output_padding only picks one of the sizes a stride or a dilation
      // leaves ambiguous, so it must be smaller than one of them.
      if (extra[d] >= c.stride[d] && extra[d] >= c.dilation[d]) {
        in.fail("output_padding must be smaller than stride or dilation");
        return false;
      }
      const int64_t extent =
          (c.x.size[2 + d] - 1) * c.stride[d] - 2 * c.padding[d] + span + extra[d];
      if (extent <= 0 || extent > INT32_MAX) {
        in.fail("the padding leaves no output");
        return false;
      }
      sizes[2 + d] = static_cast<int32_t>(extent);
      continue;
    }
    const int64_t extent = c.x.size[2 + d] + 2 * c.padding[d] - span;
    if (extent < 0) {
      in.fail("the kernel is larger than the padded input");
      return false;
    }
    sizes[2 + d] = static_cast<int32_t>(extent / c.stride[d] + 1);
  }
  if (one_d) sizes[2] = sizes[3];
  if (!resize_out(in, out, sizes, rank)) return false;
  c.y = View4(out);
  c.bias_stride = bias != nullptr ? bias->stride(0) : 0;
  return true;
}

}  // namespace portable
