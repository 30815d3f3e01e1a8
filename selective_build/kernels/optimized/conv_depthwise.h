#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/conv_depthwise_channels_last.h"
#include "kernels/optimized/conv_depthwise_direct.h"
#include "kernels/optimized/conv_depthwise_lanes.h"
#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"

// Note [Padded depthwise]
// A depthwise convolution (one input channel per group) runs per output channel plane:
// 1. The input plane is copied into scratch with its padding made explicit, split into the
//    stride_h x stride_w phases of a strided layer: phase (qy, qx) holds padded rows qy,
//    qy + stride_h, ... and of them the columns qx, qx + stride_w, ... Each phase is `rows`
//    x `width`: the output's height and width plus the kernel's reach in phase rows and
//    columns, so every tap of every output lies inside it. Every plane of a call fills the
//    same positions, so the zeros around them are written once per thread and call.
// 2. Output (oy, ox) is then the sum over taps k of w_k * phase_k[(oy + dy_k) * width + ox +
//    dx_k]: each tap reads at a fixed offset from p = oy * width + ox, so a run of outputs is
//    one vectorised pass with no bounds test and no border case (a 3-wide kernel's taps
//    fused: one pass, not one per tap). Wide rows (out_w >= kRowRun) are a run each, written
//    to the output; narrow planes are one run over p in [0, (out_h - 1) * width + out_w)
//    into scratch whose rows are then copied out (a 14-wide row alone would be one vector
//    and a scalar tail of six).
// The copies cost about a pass over the input and, for narrow planes, one over the output,
// against the border columns of a run straight over the input (summed one by one, each tap
// tested), which were most of the time on MobileNetV2's 14x14 and 7x7 planes. Padding taps
// multiply zeros, as im2col's do. Each plane is computed the same way whatever the thread
// count.
namespace optimized {
namespace conv {

// Output rows at least this wide are each a run of their own (Note [Padded depthwise]).
constexpr int64_t kRowRun = 32;

struct DepthwisePlan {
  int64_t rows, width;  // of each phase
  int64_t phases;       // stride_h * stride_w
  bool by_rows;         // a run per output row, else one run over the plane into scratch
  int64_t run;          // outputs of the run over the plane

  explicit DepthwisePlan(const Layer& l)
      : rows(l.out_h + (l.k_h - 1) * l.dil_h / l.stride_h),
        width(l.out_w + (l.k_w - 1) * l.dil_w / l.stride_w),
        phases(l.stride_h * l.stride_w),
        by_rows(l.out_w >= kRowRun || width == l.out_w),
        run((l.out_h - 1) * width + l.out_w) {}

  int64_t phase_floats() const { return rows * width; }
  int64_t scratch_floats() const { return phases * phase_floats() + (by_rows ? 0 : run); }
};

// Step 1: the padded phases of one input plane (the zeros around it already written).
inline void pad_into_phases(const Layer& l, const DepthwisePlan& p, const float* plane,
                            float* phases) {
  // Input column ix lands in padded column ix + pad_w: phase (ix + pad_w) % stride_w, column
  // (ix + pad_w) / stride_w. Columns past the phases' width are read by no tap.
  const int64_t cols = std::min(l.in_w, p.width * l.stride_w - l.pad_w);
  if (cols <= 0) return;
  const int64_t size = p.phase_floats();
  for (int64_t iy = 0; iy < l.in_h; ++iy) {
    const int64_t py = iy + l.pad_h;
    if (py / l.stride_h >= p.rows) break;  // below every tap
    const float* src = plane + iy * l.in_w;
    float* row = phases + py % l.stride_h * l.stride_w * size + py / l.stride_h * p.width;
    if (l.stride_w == 1) {
      std::memcpy(row + l.pad_w, src, static_cast<size_t>(cols) * sizeof(float));
    } else if (l.stride_w == 2) {
      const int64_t even = l.pad_w % 2;  // the phase of the even input columns
      split_pairs(src, cols, row + even * size + l.pad_w / 2,
                  row + (1 - even) * size + (l.pad_w + 1) / 2);
    } else {
      for (int64_t ix = 0; ix < cols; ++ix) {
        const int64_t px = ix + l.pad_w;
        row[px % l.stride_w * size + px / l.stride_w] = src[ix];
      }
    }
  }
}

// dst[i] = b + sum over taps of w_k * phase_k[start + offset_k + i] for i in [0, count).
inline void tap_run(const Layer& l, const DepthwisePlan& p, const float* phases, int64_t start,
                    int64_t count, const float* w, float b, float* dst) {
  Eigen::Map<Eigen::ArrayXf> out(dst, count);
  auto tap = [&](int64_t ky, int64_t kx) {
    const int64_t dy = ky * l.dil_h, dx = kx * l.dil_w;
    const int64_t phase = dy % l.stride_h * l.stride_w + dx % l.stride_w;
    const float* first = phases + phase * p.phase_floats() + dy / l.stride_h * p.width;
    return Eigen::Map<const Eigen::ArrayXf>(first + dx / l.stride_w + start, count);
  };
  if (l.k_h == 3 && l.k_w == 3) {
    out = b + w[0] * tap(0, 0) + w[1] * tap(0, 1) + w[2] * tap(0, 2) + w[3] * tap(1, 0) +
          w[4] * tap(1, 1) + w[5] * tap(1, 2) + w[6] * tap(2, 0) + w[7] * tap(2, 1) +
          w[8] * tap(2, 2);
  } else if (l.k_w == 3) {
    out = b;
    for (int64_t ky = 0; ky < l.k_h; ++ky)
      out += w[3 * ky] * tap(ky, 0) + w[3 * ky + 1] * tap(ky, 1) + w[3 * ky + 2] * tap(ky, 2);
  } else {
    out = b;
    for (int64_t ky = 0; ky < l.k_h; ++ky)
      for (int64_t kx = 0; kx < l.k_w; ++kx) out += w[ky * l.k_w + kx] * tap(ky, kx);
  }
}

// Step 2: one output plane from the phases of its input plane; `run_out` holds p.run floats
// unless p.by_rows.
// The epilogue (Note [Fused epilogue]) runs over each run while it is in cache.
inline void depthwise_plane(const Layer& l, const DepthwisePlan& p, const float* phases,
                            const float* w, float b, const rt::Epilogue& e, float* y,
                            float* run_out) {
  if (p.by_rows) {
    for (int64_t oy = 0; oy < l.out_h; ++oy) {
      tap_run(l, p, phases, oy * p.width, l.out_w, w, b, y + oy * l.out_w);
      if (e.kind != rt::EpilogueKind::None)
        finish_rows(y + oy * l.out_w, 1, l.out_w, 0, nullptr, 0, e);
    }
    return;
  }
  tap_run(l, p, phases, 0, p.run, w, b, run_out);
  if (e.kind != rt::EpilogueKind::None) finish_rows(run_out, 1, p.run, 0, nullptr, 0, e);
  for (int64_t oy = 0; oy < l.out_h; ++oy)
    std::memcpy(y + oy * l.out_w, run_out + oy * p.width,
                static_cast<size_t>(l.out_w) * sizeof(float));
}

// Every plane of every image, split over the pool's threads: channels-last tensors a vector
// of channels at once (Note [Channels-last depthwise]); 16 channels at once on narrow
// planes (Note [Depthwise channels as lanes]), straight over the input where Note [Direct
// depthwise] covers the layer, else through padded phases (Note [Padded
// depthwise]). `taps`: a channels-last layer's w as depthwise_taps lays it out, made at load
// (Note [Prepared depthwise taps]), or null. False when the scratch cannot be had.
inline bool depthwise(const Layer& l, const float* x, const float* w, const float* bias,
                      const rt::Epilogue& e, float* y, const float* taps = nullptr) {
  if (depthwise_channels_last(l)) return depthwise_nhwc(l, x, w, bias, e, y, taps);
  const int64_t channels = l.groups * l.cout_g;
  if (lanes_cover(l)) return depthwise_lanes(l, x, w, bias, e, y);
  if (const DirectPlane direct = direct_depthwise(l)) {
    // Note [Direct depthwise]: no scratch, so nothing can fail.
    opt::parallel_for(l.batch * channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t item = begin; item < end; ++item) {
        const int64_t n = item / channels, oc = item % channels;
        direct(l, x + n * l.x_n + oc / l.cout_g * l.x_c, w + oc * l.w_row,
               bias != nullptr ? bias[oc * l.bias_stride] : 0.0f, e, y + n * l.y_n + oc * l.y_c);
      }
    });
    return true;
  }
  const DepthwisePlan plan(l);
  bool ok = true;
  // Each thread zeroes its scratch's padding once, for every item it claims.
  opt::parallel_items(l.batch * channels, 1, [&](opt::WorkItems& items) {
    const size_t bytes = static_cast<size_t>(plan.scratch_floats()) * sizeof(float);
    float* scratch = static_cast<float*>(opt::thread_scratch().get(bytes));
    if (scratch == nullptr) {
      ok = false;  // every writer stores false: no ordering needed
      return;
    }
    float* run_out = scratch + plan.phases * plan.phase_floats();
    fill(scratch, plan.phases * plan.phase_floats(), 0.0f);  // the padding, for every plane
    for (int64_t begin, end; items.claim(begin, end);)
      for (int64_t item = begin; item < end; ++item) {
        const int64_t n = item / channels, oc = item % channels;
        // A channel multiplier > 1 reads one input plane for several outputs: copied again for
        // each (the copy is a small part of a plane's work).
        pad_into_phases(l, plan, x + n * l.x_n + oc / l.cout_g * l.x_c, scratch);
        depthwise_plane(l, plan, scratch, w + oc * l.w_row,
                        bias != nullptr ? bias[oc * l.bias_stride] : 0.0f, e,
                        y + n * l.y_n + oc * l.y_c, run_out);
      }
  });
  return ok;
}

}  // namespace conv
}  // namespace optimized
