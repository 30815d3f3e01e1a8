#pragma once

#include <cstdint>
#include <cstring>

// Our pool splits the work (parallel.h); Eigen's own threads stay off. Shapes are checked
// before any product, so Eigen's assertions are compiled out.
#define EIGEN_DONT_PARALLELIZE
#define EIGEN_NO_DEBUG
#include <Eigen/Core>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "kernels/optimized/vec8.h"
#include "kernels/portable/util/nn_conv.h"

// What the optimized convolution's paths share (op_convolution.cpp, conv_depthwise.h,
// conv_taps.h): a layer's sizes and strides read once from the checked call, a vectorised
// fill, and the copies of short row pieces.
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

// True when `v` is a channels-last tensor's view (Note [Channels last],
// runtime/executor/channels_last.h): each pixel's channels adjacent (stride 1), the pixels
// of a row `stride[3]` apart (the channel count, or more for a slice of a wider tensor's
// channels), the rows and the batches dense over them (size-1 dims have any stride).
inline bool channels_last_view(const portable::View4& v) {
  if (v.size[1] != 1 && v.stride[1] != 1) return false;
  const int64_t pixel = v.stride[3];
  if (pixel < v.size[1]) return false;
  if (v.size[2] != 1 && v.stride[2] != pixel * v.size[3]) return false;
  return v.size[0] == 1 || v.stride[0] == pixel * v.size[3] * v.size[2];
}

struct Layer {
  int64_t batch, groups, cin_g, cout_g;
  int64_t in_h, in_w, k_h, k_w, out_h, out_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int64_t x_n, x_c, y_n, y_c, w_row;  // strides: batch and channel of input and out, weight row
  // Pixel strides of input and out: 1 when each channel's pixels are dense (NCHW), a pixel's
  // channel count when it is channels last (Note [Channels last]; then x_c or y_c is 1).
  int64_t x_p, y_p;
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
  l.x_p = l.in_w == 1 && l.in_h == 1 ? 1 : (l.in_w == 1 ? c.x.stride[2] : c.x.stride[3]);
  l.y_p = l.out_w == 1 && l.out_h == 1 ? 1 : (l.out_w == 1 ? c.y.stride[2] : c.y.stride[3]);
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

// Work items a GEMM path wants before it splits a layer finer: Note [Convolution work items]
// in op_convolution.cpp.
constexpr int64_t kFewItems = 8;

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

}  // namespace conv
}  // namespace optimized
