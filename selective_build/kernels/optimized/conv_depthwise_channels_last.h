#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/optimized/conv_depthwise_direct.h"
#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/transpose.h"
#include "kernels/optimized/window.h"
#include "runtime/kernel/epilogue.h"

// Note [Channels-last depthwise]
// A depthwise layer whose input and out are channels last (Note [Channels last],
// runtime/executor/channels_last.h) has each pixel's channels adjacent: a vector of
// opt::sgemm::kLanes channels (16 with AVX-512, 8 with AVX2) is one load, at any stride,
// with no transpose (Note [Depthwise channels as lanes] makes that layout in scratch).
// - The threads' work items are output rows (of each image).
// - 3x3 and 5x5 kernels at stride 1 and 2 (fixed_row): a row is computed in groups of
//   kGroup outputs (the last overlapping the one before), each vector of channels in turn
//   (the last overlapping the one before when the channels are no multiple of the lanes).
//   Each input vector of a window row is loaded once into a register for every output and
//   tap of the group that reads it; the window columns a group's border outputs see
//   outside the input read as zeros, as Note [Direct depthwise]'s padding taps do.
// - Other layers (any kernel, stride, dilation; fewer channels than lanes: a scalar chain
//   per channel): per output, its taps inside the input.
// - Each output is the bias and one fused multiply-add per tap in the order of (ky, kx):
//   the chain of Note [Direct depthwise] and Note [Depthwise channels as lanes], where the
//   window rows outside the input are skipped instead of multiplying zeros (a zero product
//   changes no sum but -0, which only a bias of -0 before any tap is), so the bits are the
//   NCHW kernels', and the same whatever the split.
// - The weights are [tap][channel], so a tap's weights are one load: made at load for a
//   constant weight (Note [Prepared depthwise taps]), else once per thread and call into
//   scratch; the bias is read as it is, or gathered into scratch (zeros without one).
// - The fused epilogue (Note [Fused epilogue]) runs on the accumulators before their
//   store, as Note [Direct depthwise] applies it.
// Against the NCHW kernels on MobileNetV2's and EfficientNet-B0's layers: 0.86-1.10x their
// time (benchmarks/RESULTS.md, "Channels-last depthwise, pools and elementwise").
namespace optimized {
namespace conv {

// True when Note [Channels-last depthwise] computes this depthwise layer: its input and out
// have adjacent channels and pixels apart (op_convolution.cpp routes only channels-last
// views here; a tensor of one pixel per channel is both layouts and stays on the NCHW
// kernels).
inline bool depthwise_channels_last(const Layer& l) {
  return l.cout_g == 1 && l.x_c == 1 && l.y_c == 1 && (l.x_p != 1 || l.y_p != 1);
}

namespace nhwc {

using opt::sgemm::kLanes;
using opt::sgemm::Vec;
// Output pixels computed at once: their accumulators and a window row's inputs in registers
// (32 vector registers with AVX-512, 16 with AVX2).
constexpr int kGroup = kLanes >= 16 ? 8 : 4;

// One scalar step of the chain: fused where the vectors' madd is.
inline float madd(float a, float b, float c) {
#if defined(__FMA__) || defined(__aarch64__)
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

// The taps of one output row: window rows [ky0, ky1) inside the input, and where its inputs
// and outs are.
struct Row {
  const float* x;  // the input
  // The element offset in x of window tap (0, 0) of output column 0, channel 0: it may lie
  // in the padding, so only taps inside the input are ever made pointers.
  int64_t origin;
  float* y;  // output column 0, channel 0
  int64_t ky0, ky1;
};

// Outputs [ox, ox + R) of a row, channels [c, c + kLanes), their window columns [kx0, kx1)
// inside the input.
template <int R>
inline void pixels(const Layer& l, const Row& row, int64_t ox, int64_t kx0, int64_t kx1, int64_t c,
                   const float* taps, const float* bias, const rt::Epilogue& e, int64_t channels) {
  const int64_t x_row = l.x_p * l.in_w, step = l.stride_w * l.x_p;
  const int64_t at = row.origin + ox * step + c;
  Vec acc[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r] = opt::sgemm::load(bias + c);
  for (int64_t ky = row.ky0; ky < row.ky1; ++ky) {
    const int64_t in_row = at + ky * l.dil_h * x_row;
    for (int64_t kx = kx0; kx < kx1; ++kx) {
      const Vec w = opt::sgemm::load(taps + (ky * l.k_w + kx) * channels + c);
      const float* in = row.x + (in_row + kx * l.dil_w * l.x_p);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r)
        acc[r] = opt::sgemm::madd(w, opt::sgemm::load(in + r * step), acc[r]);
    }
  }
  direct::activate_rows<R>(acc, e);
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) opt::sgemm::store(row.y + (ox + r) * l.y_p + c, acc[r]);
}

// Keeps v in a register: without it GCC folds each load of a window row's input into every
// multiply-add that reads it (K loads where one was meant).
inline void in_register(Vec& v) {
#if defined(__x86_64__)
  __asm__("" : "+v"(v));
#elif defined(__aarch64__)
  __asm__("" : "+w"(v));
#endif
}

// Outputs [ox, ox + R) of a row, channels [c, c + kLanes), of a K x K kernel at stride S:
// each input vector of a window row is loaded once for the R outputs and K taps that read
// it ((R - 1) S + K loads for R K multiply-adds, where pixels<R> makes one per
// multiply-add). With kEdge, the window columns outside the input read as zeros, as Note
// [Direct depthwise]'s padding taps do (a zero product: the same sums).
template <int K, int S, int R, bool kEdge>
inline void group(const Layer& l, const Row& row, int64_t ox, int64_t c, const float* taps,
                  const float* bias, const rt::Epilogue& e, int64_t channels) {
  constexpr int kColumns = (R - 1) * S + K;
  const int64_t x_row = l.x_p * l.in_w;
  const int64_t ix = ox * S - l.pad_w;  // the input column of in[0]
  Vec acc[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r] = opt::sgemm::load(bias + c);
  for (int64_t ky = row.ky0; ky < row.ky1; ++ky) {
    const int64_t at = row.origin + ox * S * l.x_p + c + ky * x_row;
    Vec in[kColumns];
#pragma GCC unroll 20
    for (int j = 0; j < kColumns; ++j) {
      if (kEdge && (ix + j < 0 || ix + j >= l.in_w)) {
        in[j] = opt::sgemm::splat(0.0f);
      } else {
        in[j] = opt::sgemm::load(row.x + (at + j * l.x_p));
      }
      in_register(in[j]);
    }
#pragma GCC unroll 5
    for (int kx = 0; kx < K; ++kx) {
      const Vec w = opt::sgemm::load(taps + (ky * K + kx) * channels + c);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) acc[r] = opt::sgemm::madd(w, in[r * S + kx], acc[r]);
    }
  }
  // direct::activate_rows, with relu and clamp unrolled for all R accumulators (kept in
  // registers).
  using Kind = rt::EpilogueKind;
  if (e.kind == Kind::Relu) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) acc[r] = optimized::activate<Kind::Relu>(acc[r], 0, 0);
  } else if (e.kind == Kind::Clamp) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) acc[r] = optimized::activate<Kind::Clamp>(acc[r], e.lo, e.hi);
  } else if (e.kind != Kind::None) {
    direct::activate_rows<R>(acc, e);
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) opt::sgemm::store(row.y + (ox + r) * l.y_p + c, acc[r]);
}

// A row of a K x K kernel at stride S in groups of R outputs (the last overlapping the one
// before: its outputs computed again, to the same bits, by the same thread); `lo` and `hi`
// bound the outputs whose window columns all lie inside the input.
template <int K, int S, int R>
inline void row_in_groups(const Layer& l, const Row& row, const float* taps, const float* bias,
                          const rt::Epilogue& e, int64_t channels, int64_t lo, int64_t hi) {
  auto run = [&](int64_t first) {
    const bool edge = first < lo || first + R > hi;
    for (int64_t c = 0; c < channels; c += kLanes) {
      const int64_t c0 = std::min(c, channels - kLanes);
      if (edge) {
        group<K, S, R, true>(l, row, first, c0, taps, bias, e, channels);
      } else {
        group<K, S, R, false>(l, row, first, c0, taps, bias, e, channels);
      }
    }
  };
  int64_t ox = 0;
  for (; ox + R <= l.out_w; ox += R) run(ox);
  if (ox < l.out_w) run(l.out_w - R);
}

// The row of a K x K kernel at stride S: groups of kGroup outputs, of 4 on narrower rows.
template <int K, int S>
void fixed_row(const Layer& l, const Row& row, const float* taps, const float* bias,
               const rt::Epilogue& e, int64_t channels, int64_t lo, int64_t hi) {
  if (l.out_w >= kGroup)
    return row_in_groups<K, S, kGroup>(l, row, taps, bias, e, channels, lo, hi);
  row_in_groups<K, S, 4>(l, row, taps, bias, e, channels, lo, hi);
}

using FixedRow = void (*)(const Layer&, const Row&, const float*, const float*, const rt::Epilogue&,
                          int64_t, int64_t, int64_t);

// fixed_row<K, S> for the layer's kernel and stride where there is one (3x3 and 5x5 at
// stride 1 and 2, no dilation, rows of 4 outputs or more, a vector of channels or more),
// else null.
inline FixedRow fixed_row_of(const Layer& l) {
  if (l.k_h != l.k_w || l.dil_h != 1 || l.dil_w != 1 || l.out_w < 4 || l.groups < kLanes)
    return nullptr;
  if (l.stride_w != 1 && l.stride_w != 2) return nullptr;
  if (l.k_w == 3) return l.stride_w == 1 ? fixed_row<3, 1> : fixed_row<3, 2>;
  if (l.k_w == 5) return l.stride_w == 1 ? fixed_row<5, 1> : fixed_row<5, 2>;
  return nullptr;
}

// Output ox of a row, one channel at a time (fewer channels than lanes).
inline void pixel_by_channel(const Layer& l, const Row& row, int64_t ox, int64_t kx0, int64_t kx1,
                             const float* taps, const float* bias, const rt::Epilogue& e,
                             int64_t channels) {
  const int64_t x_row = l.x_p * l.in_w;
  const int64_t at = row.origin + ox * l.stride_w * l.x_p;
  float* out = row.y + ox * l.y_p;
  for (int64_t c = 0; c < channels; ++c) {
    float acc = bias[c];
    for (int64_t ky = row.ky0; ky < row.ky1; ++ky)
      for (int64_t kx = kx0; kx < kx1; ++kx)
        acc = madd(taps[(ky * l.k_w + kx) * channels + c],
                   row.x[at + ky * l.dil_h * x_row + kx * l.dil_w * l.x_p + c], acc);
    out[c] = acc;
  }
  if (e.kind != rt::EpilogueKind::None) finish_rows(out, 1, channels, 0, nullptr, 0, e);
}

// Outputs [ox, ox + R) of a row, every channel.
template <int R>
inline void all_channels(const Layer& l, const Row& row, int64_t ox, int64_t kx0, int64_t kx1,
                         const float* taps, const float* bias, const rt::Epilogue& e,
                         int64_t channels) {
  if (channels < kLanes) {
    for (int r = 0; r < R; ++r) pixel_by_channel(l, row, ox + r, kx0, kx1, taps, bias, e, channels);
    return;
  }
  for (int64_t c = 0; c < channels; c += kLanes)
    pixels<R>(l, row, ox, kx0, kx1, std::min(c, channels - kLanes), taps, bias, e, channels);
}

// Output row oy of image n.
inline void row(const Layer& l, FixedRow fixed, const float* x, const float* taps,
                const float* bias, const rt::Epilogue& e, float* y, int64_t n, int64_t oy,
                int64_t channels) {
  const int64_t top = oy * l.stride_h - l.pad_h;
  Row r{x, n * l.x_n + top * l.x_p * l.in_w - l.pad_w * l.x_p, y + n * l.y_n + oy * l.out_w * l.y_p,
        0, 0};
  opt::valid_outputs(top, l.dil_h, l.in_h, l.k_h, &r.ky0, &r.ky1);
  // Outputs [lo, hi) see every window column inside the row; the others only some.
  int64_t lo = 0, hi = l.out_w;
  for (int64_t kx = 0; kx < l.k_w; ++kx) {
    int64_t a, b;
    opt::valid_outputs(kx * l.dil_w - l.pad_w, l.stride_w, l.in_w, l.out_w, &a, &b);
    lo = std::max(lo, a);
    hi = std::min(hi, b);
  }
  lo = std::min(lo, l.out_w);
  hi = std::max(lo, hi);
  // Note [Activation after the store]
  const bool after = activates_after_store(e);
  const rt::Epilogue inner = after ? rt::Epilogue{rt::EpilogueKind::None, 0.0f, 0.0f} : e;
  if (fixed != nullptr) {
    fixed(l, r, taps, bias, inner, channels, lo, hi);
  } else {
    auto border = [&](int64_t ox) {
      int64_t kx0, kx1;
      opt::valid_outputs(ox * l.stride_w - l.pad_w, l.dil_w, l.in_w, l.k_w, &kx0, &kx1);
      all_channels<1>(l, r, ox, kx0, kx1, taps, bias, inner, channels);
    };
    for (int64_t ox = 0; ox < lo; ++ox) border(ox);
    int64_t ox = lo;
    if (hi - lo >= kGroup) {
      for (; ox + kGroup <= hi; ox += kGroup)
        all_channels<kGroup>(l, r, ox, 0, l.k_w, taps, bias, inner, channels);
      if (ox < hi) all_channels<kGroup>(l, r, hi - kGroup, 0, l.k_w, taps, bias, inner, channels);
      ox = hi;
    }
    for (; ox < hi; ++ox) all_channels<1>(l, r, ox, 0, l.k_w, taps, bias, inner, channels);
    for (; ox < l.out_w; ++ox) border(ox);
  }
  if (!after) return;
  if (l.y_p == channels) {
    finish_rows(r.y, 1, l.out_w * channels, 0, nullptr, 0, e);  // the row's outputs are one run
  } else {
    finish_rows(r.y, l.out_w, channels, l.y_p, nullptr, 0, e);
  }
}

}  // namespace nhwc

// The weights of a depthwise layer that depthwise_channels_last accepts as the kernels read
// them, [tap][channel]: a tap's weights of a vector of channels are one load. Made per call
// into scratch, or once at load (op_convolution.cpp prepare: Note [Prepared depthwise taps]).
inline void depthwise_taps(const Layer& l, const float* w, float* taps) {
  const int64_t channels = l.groups * l.cout_g, count = l.k_h * l.k_w;
  // Output channel oc reads input channel oc / cout_g: a channel multiplier > 1 is no
  // depthwise layer this kernel takes (cout_g == 1, op_convolution.cpp).
#if defined(__AVX512F__)
  for (int64_t oc = 0; oc < channels; oc += opt::kTransposeLanes) {
    const int rows = static_cast<int>(std::min<int64_t>(opt::kTransposeLanes, channels - oc));
    opt::transpose_rows(w + oc * l.w_row, l.w_row, rows, count, taps + oc, channels);
  }
#else
  for (int64_t oc = 0; oc < channels; ++oc)
    for (int64_t t = 0; t < count; ++t) taps[t * channels + oc] = w[oc * l.w_row + t];
#endif
}

// Note [Prepared depthwise taps]
// A constant weight is laid out by depthwise_taps once at load, as the GEMM layers' weights
// are packed (Note [Prepared GEMM operand]), so a call reads it as it is and, with a bias of
// one value per channel, needs no scratch at all. Before, every thread that took part in a
// call transposed the whole weight into its scratch before its first row. On MobileNetV2
// (Zen 3, AVX2, one and two threads) the calls' times did not measurably change: that
// transpose was a small part of them (benchmarks/RESULTS.md, "AVX2 on Zen 3").
//
// Every output row of every image, split over the pool's threads (Note [Channels-last
// depthwise]); the layer is one depthwise_channels_last accepts. `taps` is w as
// depthwise_taps lays it out, made at load, or null: each thread makes it in scratch. False
// when the scratch cannot be had.
inline bool depthwise_nhwc(const Layer& l, const float* x, const float* w, const float* bias,
                           const rt::Epilogue& e, float* y, const float* taps = nullptr) {
  const int64_t channels = l.groups * l.cout_g, count = l.k_h * l.k_w;
  const nhwc::FixedRow fixed = nhwc::fixed_row_of(l);
  const bool bias_as_is = bias != nullptr && l.bias_stride == 1;
  const int64_t scratch_floats =
      (taps == nullptr ? count * channels : 0) + (bias_as_is ? 0 : channels);
  bool ok = true;
  opt::parallel_items(l.batch * l.out_h, 1, [&](opt::WorkItems& items) {
    float* scratch = nullptr;
    if (scratch_floats > 0) {
      scratch = static_cast<float*>(
          opt::thread_scratch().get(static_cast<size_t>(scratch_floats) * sizeof(float)));
      if (scratch == nullptr) {
        ok = false;  // every writer stores false: no ordering needed
        return;
      }
    }
    const float* weights = taps;
    if (weights == nullptr) {
      depthwise_taps(l, w, scratch);
      weights = scratch;
    }
    const float* lane_bias = bias;  // one value per channel, zeros without a bias
    if (!bias_as_is) {
      float* gathered = scratch + (taps == nullptr ? count * channels : 0);
      for (int64_t oc = 0; oc < channels; ++oc)
        gathered[oc] = bias != nullptr ? bias[oc * l.bias_stride] : 0.0f;
      lane_bias = gathered;
    }
    for (int64_t begin, end; items.claim(begin, end);)
      for (int64_t item = begin; item < end; ++item)
        nhwc::row(l, fixed, x, weights, lane_bias, e, y, item / l.out_h, item % l.out_h, channels);
  });
  return ok;
}

}  // namespace conv
}  // namespace optimized
