#pragma once

#include <cstdint>
#include <cstring>

// Our pool splits the work (parallel.h); Eigen's own threads stay off. Shapes are checked
// before any product, so Eigen's assertions are compiled out.
#define EIGEN_DONT_PARALLELIZE
#define EIGEN_NO_DEBUG
#include <Eigen/Core>

#include "kernels/optimized/vec8.h"
#include "kernels/portable/util/nn_conv.h"

// What the optimized convolution's paths share (op_convolution.cpp, conv_depthwise.h): a
// layer's sizes and strides read once from the checked call, and a vectorised fill.
namespace optimized {
namespace conv {

// True when dims `first`..3 of `v` are laid out densely in that order (size-1 dims have
// any stride): the pixels of a channel are one run of memory.
inline bool dense_from(const portable::View4& v, int first) {
  int64_t expected = 1;
  for (int d = 3; d >= first; --d) {
    if (v.size[d] != 1 && v.stride[d] != expected) return false;
    expected *= v.size[d];
  }
  return true;
}

struct Layer {
  int64_t batch, groups, cin_g, cout_g;
  int64_t in_h, in_w, k_h, k_w, out_h, out_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int64_t x_n, x_c, y_n, y_c, w_row;  // strides: batch and channel of input and out, weight row
  int64_t bias_stride;

  int64_t k() const { return cin_g * k_h * k_w; }
  int64_t pixels() const { return out_h * out_w; }
};

inline Layer layer_of(const portable::ConvCall& c) {
  Layer l;
  l.batch = c.y.size[0];
  l.groups = c.groups;
  l.cin_g = c.w.size[1];
  l.cout_g = c.y.size[1] / c.groups;
  l.in_h = c.x.size[2];
  l.in_w = c.x.size[3];
  l.k_h = c.w.size[2];
  l.k_w = c.w.size[3];
  l.out_h = c.y.size[2];
  l.out_w = c.y.size[3];
  l.stride_h = c.stride[0];
  l.stride_w = c.stride[1];
  l.pad_h = c.padding[0];
  l.pad_w = c.padding[1];
  l.dil_h = c.dilation[0];
  l.dil_w = c.dilation[1];
  l.x_n = c.x.stride[0];
  l.x_c = c.x.stride[1];
  l.y_n = c.y.stride[0];
  l.y_c = c.y.stride[1];
  l.w_row = c.w.size[0] == 1 ? l.k() : c.w.stride[0];
  l.bias_stride = c.bias_stride;
  return l;
}

// dst[0, count) = value with Eigen's vector stores: GCC leaves std::fill scalar at -O2, and
// the fill before each GEMM writes every output once (a tenth of MobileNetV2's time as a
// scalar loop).
inline void fill(float* dst, int64_t count, float value) {
  Eigen::Map<Eigen::ArrayXf>(dst, count).setConstant(value);
}

}  // namespace conv
}  // namespace optimized
