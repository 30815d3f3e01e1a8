#pragma once

#include <cstdint>

#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// A 3-D (C, H, W) or 4-D (N, C, H, W) tensor seen as 4-D: a 3-D one has N = 1.
struct Planes4 {
  int64_t size[4];
  int64_t stride[4];

  explicit Planes4(const rt::Tensor& t) {
    const int shift = t.dim() == 3 ? 1 : 0;
    size[0] = 1;
    stride[0] = 0;
    for (int d = shift; d < 4; ++d) {
      size[d] = t.size(d - shift);
      stride[d] = t.stride(d - shift);
    }
  }
  int64_t at(int64_t n, int64_t c, int64_t h, int64_t w) const {
    return n * stride[0] + c * stride[1] + h * stride[2] + w * stride[3];
  }
};

// The window geometry of a 2-d pooling call.
struct PoolWindow {
  int64_t kernel[2], stride[2], padding[2], dilation[2];
};

// Reads kernel_size, stride (empty: kernel_size), padding and dilation
// (none: 1), checks self (3-D or 4-D, with no empty plane) and torch's
// limits, and resizes `outs` to the pooled shape.
__attribute__((noinline)) inline bool plan_pool2d(const rt::OpContext& in, const rt::Tensor& self,
                                                  rt::IntList kernel_size, rt::IntList stride,
                                                  rt::IntList padding, const rt::IntList* dilation,
                                                  bool ceil_mode, rt::Tensor* const* outs,
                                                  int out_count, PoolWindow* w) {
  if (!pair_arg(in, kernel_size, 0, 0, true, w->kernel) ||
      !pair_arg(in, stride, w->kernel[0], w->kernel[1], true, w->stride) ||
      !pair_arg(in, padding, 0, 0, false, w->padding)) {
    return false;
  }
  w->dilation[0] = w->dilation[1] = 1;
  if (dilation != nullptr && !pair_arg(in, *dilation, 1, 1, true, w->dilation)) return false;
  const int rank = self.dim();
  if ((rank != 3 && rank != 4) || self.size(rank - 1) == 0 || self.size(rank - 2) == 0) {
    in.fail("self must be 3-D or 4-D with nonzero height and width");
    return false;
  }
  int32_t sizes[4];
  for (int d = 0; d < rank; ++d) sizes[d] = self.size(d);
  for (int d = 0; d < 2; ++d) {
    const int64_t span = w->dilation[d] * (w->kernel[d] - 1) + 1;
    if (w->padding[d] > span / 2) {
      in.fail("padding must be at most half the kernel size");
      return false;
    }
    const int64_t input = sizes[rank - 2 + d];
    const int64_t room = input + 2 * w->padding[d] - span + (ceil_mode ? w->stride[d] - 1 : 0);
    int64_t pooled =
        (room >= 0 ? room / w->stride[d] : -((-room + w->stride[d] - 1) / w->stride[d])) + 1;
    // With ceil_mode, the last window must start inside the input or its left padding.
    if (ceil_mode && (pooled - 1) * w->stride[d] >= input + w->padding[d]) --pooled;
    if (pooled < 1) {
      in.fail("the pooled output would be empty");
      return false;
    }
    sizes[rank - 2 + d] = static_cast<int32_t>(pooled);
  }
  for (int k = 0; k < out_count; ++k) {
    if (!resize_out(in, *outs[k], sizes, rank)) return false;
  }
  return true;
}

// Checks self (3-D or 4-D, no empty plane) and output_size (two sizes) of an adaptive
// pooling call and resizes `out` to them.
__attribute__((noinline)) inline bool plan_adaptive_pool2d(const rt::OpContext& in,
                                                           const rt::Tensor& self,
                                                           rt::IntList output_size,
                                                           rt::Tensor& out) {
  const int rank = self.dim();
  if ((rank != 3 && rank != 4) || self.size(rank - 1) == 0 || self.size(rank - 2) == 0) {
    in.fail("self must be 3-D or 4-D with nonzero height and width");
    return false;
  }
  if (output_size.size() != 2 || output_size[0] < 0 || output_size[1] < 0 ||
      output_size[0] > INT32_MAX || output_size[1] > INT32_MAX) {
    in.fail("output_size must be two sizes");
    return false;
  }
  int32_t sizes[4];
  for (int d = 0; d < rank; ++d) sizes[d] = self.size(d);
  sizes[rank - 2] = static_cast<int32_t>(output_size[0]);
  sizes[rank - 1] = static_cast<int32_t>(output_size[1]);
  return resize_out(in, out, sizes, rank);
}

// The operators' checks (Note [Shared kernel checks], shape_copy.h): self's dtype one of
// Dtypes (the calling library's) and out's the same, then each operator's own; the outs
// resized to the pooled shape and the window (none for adaptive pooling) given.

// avg_pool2d: divisor_override, when given, is not zero.
template <typename Dtypes>
bool plan_avg_pool2d(const rt::OpContext& in, const rt::Tensor& self, rt::IntList kernel_size,
                     rt::IntList stride, rt::IntList padding, bool ceil_mode,
                     rt::Optional<int64_t> divisor_override, rt::Tensor& out, PoolWindow* win) {
  if (!shape_same_dtype<Dtypes>(in, self, out)) return false;
  if (divisor_override.has_value() && divisor_override.value() == 0) {
    in.fail("divisor_override must not be zero");
    return false;
  }
  rt::Tensor* const outs[] = {&out};
  return plan_pool2d(in, self, kernel_size, stride, padding, nullptr, ceil_mode, outs, 1, win);
}

// max_pool2d_with_indices: indices are int64.
template <typename Dtypes>
bool plan_max_pool2d_with_indices(const rt::OpContext& in, const rt::Tensor& self,
                                  rt::IntList kernel_size, rt::IntList stride, rt::IntList padding,
                                  rt::IntList dilation, bool ceil_mode, rt::Tensor& out,
                                  rt::Tensor& indices, PoolWindow* win) {
  if (!shape_same_dtype<Dtypes>(in, self, out)) return false;
  if (indices.dtype() != rt::ScalarType::Long) {
    in.fail("indices must be int64");
    return false;
  }
  rt::Tensor* const outs[] = {&out, &indices};
  return plan_pool2d(in, self, kernel_size, stride, padding, &dilation, ceil_mode, outs, 2, win);
}

// _adaptive_avg_pool2d.
template <typename Dtypes>
bool plan_adaptive_avg_pool2d(const rt::OpContext& in, const rt::Tensor& self,
                              rt::IntList output_size, rt::Tensor& out) {
  return shape_same_dtype<Dtypes>(in, self, out) &&
         plan_adaptive_pool2d(in, self, output_size, out);
}

}  // namespace portable
