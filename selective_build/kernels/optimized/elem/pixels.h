#pragma once

#include <cstdint>

#include "kernels/optimized/elem/vmath.h"

// Note [Sums over pixels]
// A channels-last tensor (Note [Channels last], runtime/executor/channels_last.h) holds each
// pixel's channels adjacent, so a window's mean per channel (a global average pool, a mean
// over H and W, an adaptive or plain average pool's window) is a sum of rows of channels:
// vectors of channels added pixel after pixel, four vectors in flight, each channel's sum
// running over the window's rows, then columns, as portable's scalar loops run it (the same
// chain, lane for lane), then divided by the count.
namespace optimized {

// A window of pixels of a channels-last tensor: `rows` x `cols` pixels, rows `row_step` and
// pixels `col_step` floats apart.
struct PixelWindow {
  const float* first;
  int64_t rows, row_step, cols, col_step;
};

// dst[j] = (sum over the window's pixels of their channel c + j) / count, for B vectors of
// channels at c (only `n` lanes of the last one, when n < B kLanes).
template <int B>
inline void window_sums(const PixelWindow& w, int64_t c, int64_t n, float count, float* dst) {
  Vec acc[B];
  for (int v = 0; v < B; ++v) acc[v] = splat(0.0f);
  for (int64_t h = 0; h < w.rows; ++h) {
    const float* row = w.first + h * w.row_step + c;
    for (int64_t x = 0; x < w.cols; ++x) {
      const float* pixel = row + x * w.col_step;
#pragma GCC unroll 4
      for (int v = 0; v < B; ++v) {
        const int64_t left = n - v * kLanes;
        acc[v] += left >= kLanes ? load(pixel + v * kLanes)
                                 : load_partial(pixel + v * kLanes, left, 0.0f);
      }
    }
  }
#pragma GCC unroll 4
  for (int v = 0; v < B; ++v) {
    const int64_t left = n - v * kLanes;
    if (left >= kLanes) {
      store(dst + c + v * kLanes, acc[v] / count);
    } else {
      store_partial(dst + c + v * kLanes, acc[v] / count, left);
    }
  }
}

// Channels summed at once: four vectors of them.
constexpr int64_t kWindowBlock = 4 * kLanes;

// dst[c] = the mean of channel c over the window, for c in [first, last) (by default every
// channel, [0, channels)): Note [Sums over pixels]. Each channel's sum is the same whatever
// range it is in, so threads may split a window's channels.
inline void window_mean(const PixelWindow& w, int64_t channels, float count, float* dst,
                        int64_t first = 0, int64_t last = -1) {
  if (last < 0) last = channels;
  int64_t c = first;
  for (; c + kWindowBlock <= last; c += kWindowBlock)
    window_sums<4>(w, c, kWindowBlock, count, dst);
  for (; c < last; c += kLanes)
    window_sums<1>(w, c, last - c < kLanes ? last - c : kLanes, count, dst);
}

}  // namespace optimized
