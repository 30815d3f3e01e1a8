"""The depthwise layers of MobileNetV2 and EfficientNet-B0, class by class: Note
[Channels-last depthwise] (input and out channels last) against the NCHW kernels the same
layer takes on NCHW tensors (Note [Direct depthwise], or [Depthwise channels as lanes]).

Usage (from the repository root, with the project's Python)::

    python benchmarks/depthwise_channels_last.py [--rounds 5] [--activation silu]
        [--level x86-64-v4]

Compiles a small C++ driver around kernels/optimized/conv_depthwise.h with the flags the
build gives the optimized library's objects for `--level` (x86-64-v4: 16 channels per
vector; x86-64-v3: AVX2, 8; by default the machine's own), and prints for each layer class
(channels, kernel, stride, input plane; padding k / 2, a relu6 epilogue or `--activation`'s)
the time per call of each layout, one thread, thread CPU time, the layouts alternating in
each round: warm (the layer's tensors left in cache by the previous call) and cold (4 MB
written between calls, as the model's other layers do; the time of that writing
subtracted). The shapes are benchmarks/depthwise_lanes.py's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import depthwise_lanes  # noqa: E402
import kernel_driver  # noqa: E402

DRIVER = (
    kernel_driver.PRELUDE
    + r"""
#include "kernels/optimized/conv_depthwise.h"

namespace {
"""
    + depthwise_lanes.SHAPES
    + r"""
}  // namespace

int main(int, char** argv) {
  const int rounds = atoi(argv[1]);
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> junk(1 << 20);
  auto evict = [&] {
    for (size_t i = 0; i < junk.size(); i += 16) junk[i] += 1.0f;
  };
  double evict_start = cpu_seconds();
  for (int r = 0; r < 50; ++r) evict();
  const double evict_time = (cpu_seconds() - evict_start) / 50;
  printf("| used by | channels | k | stride | input | NCHW | channels last | ratio | cold NCHW |"
         " cold channels last | cold ratio |\n|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
         "---:|\n");
  for (const Shape& s : kShapes) {
    optimized::conv::Layer l{};
    l.batch = 1, l.groups = s.channels, l.cin_g = 1, l.cout_g = 1, l.k_h = l.k_w = s.k;
    l.stride_h = l.stride_w = s.stride, l.pad_h = l.pad_w = s.k / 2;
    l.in_h = l.in_w = s.in, l.dil_h = l.dil_w = 1;
    l.out_h = l.out_w = (s.in + 2 * l.pad_h - s.k) / s.stride + 1;
    l.w_row = s.k * s.k, l.bias_stride = 1;
    optimized::conv::Layer nchw = l, last = l;
    nchw.x_c = s.in * s.in, nchw.x_n = s.channels * nchw.x_c, nchw.x_p = 1;
    nchw.y_c = l.out_h * l.out_w, nchw.y_n = s.channels * nchw.y_c, nchw.y_p = 1;
    last.x_c = 1, last.x_p = s.channels, last.x_n = s.channels * s.in * s.in;
    last.y_c = 1, last.y_p = s.channels, last.y_n = s.channels * l.out_h * l.out_w;
    std::vector<float> x(nchw.x_n), w(s.channels * l.w_row), b(s.channels), y(nchw.y_n);
    for (float& v : x) v = uniform(random);
    for (float& v : w) v = uniform(random);
    for (float& v : b) v = uniform(random);
    // argv[2]: the activation, as kernel_driver.ACTIVATIONS numbers it.
    const rt::Epilogue e{static_cast<rt::EpilogueKind>(atoi(argv[2])), 0.0f, 6.0f};
    const int reps = 100;
    double times[4] = {};  // NCHW, channels last, then cold
    for (int round = 0; round < rounds; ++round) {
      for (int cold = 0; cold < 2; ++cold)
        for (int path = 0; path < 2; ++path) {
          const double start = cpu_seconds();
          for (int r = 0; r < reps; ++r) {
            if (!optimized::conv::depthwise(path == 0 ? nchw : last, x.data(), w.data(),
                                            b.data(), e, y.data()))
              return 2;
            if (cold) evict();
          }
          times[2 * cold + path] += cpu_seconds() - start - (cold ? reps * evict_time : 0.0);
        }
    }
    const double per_call = 1e6 / (rounds * reps);
    printf("| %s | %d | %d | %d | %dx%d | %.1f µs | %.1f µs | %.2f | %.1f µs | %.1f µs | %.2f |\n",
           s.model, s.channels, s.k, s.stride, s.in, s.in, times[0] * per_call,
           times[1] * per_call, times[1] / times[0], times[2] * per_call, times[3] * per_call,
           times[3] / times[2]);
  }
  return 0;
}
"""
)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    kernel_driver.add_level_argument(parser)
    kernel_driver.add_activation_argument(parser)
    options = parser.parse_args()
    kernel_driver.check_level(parser, options.level)
    activation = str(kernel_driver.ACTIVATIONS[options.activation])
    output = kernel_driver.run_driver(DRIVER, options.level, [str(options.rounds), activation])
    print(
        f"{options.level}; one thread, thread CPU time per call, mean of {options.rounds} rounds."
    )
    print(output)


if __name__ == "__main__":
    main()
