#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/optimized/conv_depthwise_direct.h"
#include "kernels/optimized/conv_layer.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/transpose.h"
#include "runtime/kernel/epilogue.h"

// Note [Depthwise channels as lanes]
// Note [Direct depthwise] computes a vector of one plane's output columns: a 7-wide plane
// fills 7 of 16 lanes, a 14-wide one 14, each chunk makes its masks again, and at stride 2
// each tap takes two loads and a shuffle. For narrow planes (MobileNetV2's and
// EfficientNet-B0's 7x7 and 14x14 layers, their 28x28 ones at stride 2 or with a 5x5
// kernel, their 56x56 ones at stride 2) the layer instead runs 16 channels at once, one per
// lane, as XNNPACK's channels-last kernels do:
// 1. The block's 16 input planes are transposed (transpose.h, 16 x 16 in registers) into a
//    pixel-major copy in scratch, [padded row][padded column][16 channels], with the padding
//    made explicit: the padding columns zeroed once per thread and call (every block fills
//    the same positions), rows of padding zeroed where a band reads them. Only the rows and
//    columns some tap reads are kept, and a large plane goes in bands of output rows whose
//    copy fits in L2 (Grid; rows under two bands copied twice, the last band overlapping
//    the one before, computed twice to the same bits).
// 2. Each output pixel is then the bias and one fused multiply-add per tap in the order of
//    (ky, kx), each of a vector of the 16 channels' weights (transposed from the weight rows
//    once per block) and one aligned load: the chain of Note [Direct depthwise] lane for
//    lane, padding taps multiplying zeros as there, so the bits are the direct kernel's.
//    Eight pixels are computed at once, in raster order across the rows, their chains
//    interleaved; the last group overlaps the one before (planes of fewer pixels keep the
//    direct kernel).
// 3. The fused epilogue (Note [Fused epilogue]): relu and clamp in registers, hardswish,
//    sigmoid and SiLU over the band's outputs with their own kernels' vector code, then
//    16 x 16 transposes back into the 16 output planes.
// The threads' work items are the bands of each block (at least eight per thread, so that
// the last claims are small); a band stores only its own output rows, those it shares with
// the band before being that band's. Each output is computed the same way whatever the
// split, so the bits do not depend on the thread count.
// Channels past the last multiple of 16 are masked lanes: their weights and bias are
// zeros, their inputs are whatever an earlier block left, and nothing of them is stored.
// Only with AVX-512 (16 lanes, the masked transposes); wider planes and other instruction
// sets keep the direct kernel. Which widths pay was measured (benchmarks/RESULTS.md,
// "Depthwise channels as lanes").
namespace optimized {
namespace conv {

#if defined(__AVX512F__)
namespace lanes {

using opt::sgemm::Vec;
constexpr int kChannels = opt::sgemm::kLanes;
// Where the lanes pay (benchmarks/depthwise_lanes.py; RESULTS.md, "Depthwise channels as
// lanes"), the widest output rows they take: at stride 2, whose direct kernel takes two
// loads and a shuffle per tap, 56 (112 -> 56: 0.60-0.83x the direct kernel's time); with
// a 5x5 kernel 28 (0.74-1.00x); with a 3x3 one at stride 1, whose few taps per output
// leave the transposes about as much time as the lanes save from 28 wide on (0.92-1.17x),
// 16 (14x14: 0.84-1.11x, mostly 0.85-0.99x). Wider rows fill the direct kernel's vectors.
inline int64_t widest_row(const Layer& l) {
  if (l.stride_w == 2) return 56;
  return l.k_w == 5 ? 28 : 16;
}
// Output pixels computed at once (step 2).
constexpr int kGroup = 8;

// opt::transpose_rows, one copy for the weights', the input's and the output's transposes
// (inlined at each, they made the runner 5 KB larger for no measurable time).
__attribute__((noinline)) inline void transpose(const float* in, int64_t in_step, int rows,
                                                int64_t depth, float* out, int64_t out_step) {
  opt::transpose_rows(in, in_step, rows, depth, out, out_step);
}

// The grid's floats at most (256 KB), unless a band of kGroup pixels needs more: it stays
// in L2 with the band's outputs. MobileNetV2's and EfficientNet-B0's 56 -> 28 layers fit
// whole; their 112 -> 56 one takes 4 bands.
constexpr int64_t kGridFloats = 64 * 1024;

// The bands of output rows a plane is cut into, and the padded input rows and columns a
// band's taps read.
struct Grid {
  int64_t cols, band, bands, rows;
  // At least `at_least` bands where the plane has enough rows (more work items for the
  // threads).
  Grid(const Layer& l, int64_t at_least)
      : cols((l.out_w - 1) * l.stride_w + l.k_w),
        band(band_of(l, cols, at_least)),
        bands((l.out_h + band - 1) / band),
        rows((band - 1) * l.stride_h + l.k_h) {}
  int64_t input_floats() const { return rows * cols * kChannels; }
  int64_t output_floats(const Layer& l) const { return band * l.out_w * kChannels; }
  // The first output row of band b: the last band overlaps the one before by less than
  // one row per band (its rows computed twice, to the same bits, and stored once).
  int64_t first_row(const Layer& l, int64_t b) const { return std::min(b * band, l.out_h - band); }

 private:
  // Bands of equal height, as few as fit and at least `at_least`, of at least a group of
  // pixels each.
  static int64_t band_of(const Layer& l, int64_t cols, int64_t at_least) {
    const int64_t fit = (kGridFloats / (cols * kChannels) - l.k_h) / l.stride_h + 1;
    const int64_t group = (kGroup + l.out_w - 1) / l.out_w;  // rows of a group of pixels
    const int64_t most = std::min(l.out_h, std::max(fit, group));
    const int64_t bands = std::max((l.out_h + most - 1) / most, at_least);
    return std::max(group, (l.out_h + bands - 1) / bands);
  }
};

// Step 1: the padded rows [oy0 * S, oy0 * S + g.rows) of input planes [c0, c0 + count) of
// one image, for output rows [oy0, oy0 + g.band). Rows of padding are zeroed; the padding
// columns are zeros already.
inline void transpose_in(const Layer& l, const Grid& g, const float* x, int count, int64_t oy0,
                         float* grid) {
  const int64_t width = std::min(l.in_w, g.cols - l.pad_w);
  for (int64_t t = 0; t < g.rows; ++t) {
    const int64_t iy = oy0 * l.stride_h + t - l.pad_h;
    float* row = grid + t * g.cols * kChannels;
    if (iy >= 0 && iy < l.in_h) {
      transpose(x + iy * l.in_w, l.x_c, count, width, row + l.pad_w * kChannels, kChannels);
    } else {
      fill(row, g.cols * kChannels, 0.0f);
    }
  }
}

// Step 2: a band's output pixels [q0, q0 + R) in raster order, written at
// out[q * kChannels].
template <int K, int S, int R>
inline void pixels(const Layer& l, const Grid& g, const float* grid, int64_t q0, const Vec* w,
                   Vec bias, const rt::Epilogue& e, float* out) {
  const float* at[R];
  int64_t oy = q0 / l.out_w, ox = q0 - oy * l.out_w;
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    at[r] = grid + (oy * S * g.cols + ox * S) * kChannels;
    if (++ox == l.out_w) ox = 0, ++oy;
  }
  const int64_t row = g.cols * kChannels;
  Vec acc[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r] = bias;
#pragma GCC unroll 5
  for (int ky = 0; ky < K; ++ky)
#pragma GCC unroll 5
    for (int kx = 0; kx < K; ++kx)
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r)
        acc[r] = opt::sgemm::madd(w[ky * K + kx],
                                  opt::sgemm::load(at[r] + ky * row + kx * kChannels), acc[r]);
  using Kind = rt::EpilogueKind;
  if (e.kind == Kind::Relu) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) acc[r] = optimized::activate<Kind::Relu>(acc[r], 0, 0);
  } else if (e.kind == Kind::Clamp) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) acc[r] = optimized::activate<Kind::Clamp>(acc[r], e.lo, e.hi);
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) opt::sgemm::store(out + (q0 + r) * kChannels, acc[r]);
}

// Steps 2 and 3 up to the transpose: every output pixel of a band into `out`.
template <int K, int S>
void block(const Layer& l, const Grid& g, const float* grid, const Vec* w, Vec bias,
           const rt::Epilogue& e, float* out) {
  const int64_t total = g.band * l.out_w;  // at least kGroup: Grid::band_of
  for (int64_t q = 0; q < total; q += kGroup)
    pixels<K, S, kGroup>(l, g, grid, std::min<int64_t>(q, total - kGroup), w, bias, e, out);
  using Kind = rt::EpilogueKind;
  if (e.kind != Kind::None && e.kind != Kind::Relu && e.kind != Kind::Clamp)
    direct::activate_rows_out_of_line(reinterpret_cast<Vec*>(out), static_cast<int>(total), e);
}

using Block = void (*)(const Layer&, const Grid&, const float*, const Vec*, Vec,
                       const rt::Epilogue&, float*);

inline Block block_of(const Layer& l) {
  if (l.k_h == 3) return l.stride_h == 1 ? block<3, 1> : block<3, 2>;
  return l.stride_h == 1 ? block<5, 1> : block<5, 2>;
}

}  // namespace lanes

// True when Note [Depthwise channels as lanes] computes this depthwise layer.
inline bool lanes_cover(const Layer& l) {
  if (direct_depthwise(l) == nullptr || l.cout_g != 1 || l.pixels() < lanes::kGroup) return false;
  return l.out_w <= lanes::widest_row(l);
}

// Every band of every block of 16 channels of every image, split over the pool's threads
// (Note [Depthwise channels as lanes]); the layer is one lanes_cover accepts. False when
// the scratch cannot be had.
inline bool depthwise_lanes(const Layer& l, const float* x, const float* w, const float* bias,
                            const rt::Epilogue& e, float* y) {
  using lanes::kChannels;
  const int64_t channels = l.groups;
  const int64_t blocks = (channels + kChannels - 1) / kChannels;
  // With threads, about 8 items per thread or more: claims of one 16-channel block (a ninth
  // of a 144-channel layer) would leave one thread waiting for the other at the end.
  const int64_t wanted = opt::kThreads > 1 ? 8 * opt::kThreads : 1;
  const lanes::Grid grid(l, (wanted + l.batch * blocks - 1) / (l.batch * blocks));
  const lanes::Block compute = lanes::block_of(l);
  const int64_t total = grid.band * l.out_w;  // per band
  bool ok = true;
  opt::parallel_items(l.batch * blocks * grid.bands, 1, [&](opt::WorkItems& items) {
    const int64_t floats = grid.input_floats() + grid.output_floats(l);
    float* scratch =
        static_cast<float*>(opt::thread_scratch().get(static_cast<size_t>(floats) * sizeof(float)));
    if (scratch == nullptr) {
      ok = false;  // every writer stores false: no ordering needed
      return;
    }
    float* out = scratch + grid.input_floats();
    fill(scratch, grid.input_floats(), 0.0f);  // the padding, for every block
    for (int64_t begin, end; items.claim(begin, end);)
      for (int64_t item = begin; item < end; ++item) {
        const int64_t n = item / grid.bands / blocks, c0 = item / grid.bands % blocks * kChannels;
        const int64_t band = item % grid.bands;
        const int count = static_cast<int>(std::min<int64_t>(kChannels, channels - c0));
        // Masked lanes' weights and bias are zeros.
        alignas(64) float taps[25 * kChannels];
        alignas(64) float lane_bias[kChannels] = {};
        if (count < kChannels) fill(taps, l.k_h * l.k_w * kChannels, 0.0f);
        lanes::transpose(w + c0 * l.w_row, l.w_row, count, l.k_h * l.k_w, taps, kChannels);
        if (bias != nullptr)
          for (int j = 0; j < count; ++j) lane_bias[j] = bias[(c0 + j) * l.bias_stride];
        lanes::Vec tap_vectors[25];
        for (int64_t t = 0; t < l.k_h * l.k_w; ++t)
          tap_vectors[t] = opt::sgemm::load(taps + t * kChannels);
        const int64_t oy0 = grid.first_row(l, band);
        lanes::transpose_in(l, grid, x + n * l.x_n + c0 * l.x_c, count, oy0, scratch);
        compute(l, grid, scratch, tap_vectors, opt::sgemm::load(lane_bias), e, out);
        // Step 3's transpose: pixel q of lane j to output plane c0 + j, from the band's own
        // rows on (those above are the band before's: no two threads store one value).
        float* planes = y + n * l.y_n + c0 * l.y_c + oy0 * l.out_w;
        for (int64_t q = (band * grid.band - oy0) * l.out_w; q < total; q += kChannels)
          opt::transpose_block(out + q * kChannels, kChannels,
                               static_cast<int>(std::min<int64_t>(kChannels, total - q)), count,
                               planes + q, l.y_c);
      }
  });
  return ok;
}

#else

inline bool lanes_cover(const Layer&) { return false; }
inline bool depthwise_lanes(const Layer&, const float*, const float*, const float*,
                            const rt::Epilogue&, float*) {
  return false;
}

#endif

}  // namespace conv
}  // namespace optimized
