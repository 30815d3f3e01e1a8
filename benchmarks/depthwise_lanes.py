"""The depthwise layers of MobileNetV2 and EfficientNet-B0, class by class: Note [Depthwise
channels as lanes] against Note [Direct depthwise], what lanes_cover's widths are chosen from.

Usage (from the repository root, with the project's Python, on an AVX-512 machine)::

    python benchmarks/depthwise_lanes.py [--rounds 5]

Compiles a small C++ driver around kernels/optimized/conv_depthwise.h with the flags the
build gives the optimized library's objects (as benchmarks/gemm_tiles.py does) for
x86-64-v4, and prints for each layer class (channels, kernel, stride, input plane; padding
k / 2, a relu6 epilogue) the time per call of each path, one thread, thread CPU time, the
paths alternating in each round: warm (the layer's tensors left in cache by the previous
call) and cold (4 MB written between calls, as the model's other layers do; the time of
that writing subtracted).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_driver  # noqa: E402

# The layer classes, this driver's and depthwise_channels_last.py's.
SHAPES = r"""
struct Shape {
  int channels, k, stride, in;
  const char* model;
};

// Of MobileNetV2 (torchvision) and EfficientNet-B0: each class once.
const Shape kShapes[] = {
    {32, 3, 1, 112, "MobileNetV2, EfficientNet-B0"},
    {96, 3, 2, 112, "MobileNetV2, EfficientNet-B0"},
    {144, 3, 1, 56, "MobileNetV2, EfficientNet-B0"}, {144, 3, 2, 56, "MobileNetV2"},
    {192, 3, 1, 28, "MobileNetV2"}, {192, 3, 2, 28, "MobileNetV2"},
    {384, 3, 1, 14, "MobileNetV2"}, {576, 3, 1, 14, "MobileNetV2"},
    {576, 3, 2, 14, "MobileNetV2"}, {960, 3, 1, 7, "MobileNetV2"},
    {144, 5, 2, 56, "EfficientNet-B0"}, {240, 5, 1, 28, "EfficientNet-B0"},
    {240, 3, 2, 28, "EfficientNet-B0"}, {480, 3, 1, 14, "EfficientNet-B0"},
    {480, 5, 1, 14, "EfficientNet-B0"}, {672, 5, 1, 14, "EfficientNet-B0"},
    {672, 5, 2, 14, "EfficientNet-B0"}, {1152, 5, 1, 7, "EfficientNet-B0"},
    {1152, 3, 1, 7, "EfficientNet-B0"},
};
"""

DRIVER = (
    kernel_driver.PRELUDE
    + r"""
#include "kernels/optimized/conv_depthwise.h"

namespace {
"""
    + SHAPES
    + r"""
}  // namespace

int main(int argc, char** argv) {
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
  printf("%-30s %5s %3s %6s %9s %9s %9s %6s %9s %9s %6s\n", "used by", "chan", "k", "stride",
         "in", "direct", "lanes", "ratio", "cold dir", "cold lan", "ratio");
  for (const Shape& s : kShapes) {
    optimized::conv::Layer l{};
    l.batch = 1, l.groups = s.channels, l.cin_g = 1, l.cout_g = 1, l.k_h = l.k_w = s.k;
    l.stride_h = l.stride_w = s.stride, l.pad_h = l.pad_w = s.k / 2;
    l.in_h = l.in_w = s.in, l.dil_h = l.dil_w = 1;
    l.out_h = l.out_w = (s.in + 2 * l.pad_h - s.k) / s.stride + 1;
    l.x_c = s.in * s.in, l.x_n = s.channels * l.x_c;
    l.y_c = l.out_h * l.out_w, l.y_n = s.channels * l.y_c;
    l.w_row = s.k * s.k, l.bias_stride = 1;
    std::vector<float> x(l.x_n), w(s.channels * l.w_row), b(s.channels), y(l.y_n);
    for (float& v : x) v = uniform(random);
    for (float& v : w) v = uniform(random);
    for (float& v : b) v = uniform(random);
    const rt::Epilogue e{rt::EpilogueKind::Clamp, 0.0f, 6.0f};
    const optimized::conv::DirectPlane direct = optimized::conv::direct_depthwise(l);
    auto run_direct = [&] {
      for (int c = 0; c < s.channels; ++c)
        direct(l, x.data() + c * l.x_c, w.data() + c * l.w_row, b[c], e, y.data() + c * l.y_c);
    };
    auto run_lanes = [&] {
      optimized::conv::depthwise_lanes(l, x.data(), w.data(), b.data(), e, y.data());
    };
    const int reps = 100;
    double times[4] = {};  // direct, lanes, then cold
    for (int round = 0; round < rounds; ++round) {
      for (int cold = 0; cold < 2; ++cold)
        for (int path = 0; path < 2; ++path) {
          const double start = cpu_seconds();
          for (int r = 0; r < reps; ++r) {
            if (path == 0) run_direct(); else run_lanes();
            if (cold) evict();
          }
          times[2 * cold + path] += cpu_seconds() - start - (cold ? reps * evict_time : 0.0);
        }
    }
    const double per_call = 1e6 / (rounds * reps);
    printf("%-30s %5d %3d %6d %4dx%-4d %7.1fus %7.1fus %5.2fx %7.1fus %7.1fus %5.2fx\n",
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
    options = parser.parse_args()
    if not kernel_driver.has_avx512():  # its driver would stop with SIGILL
        parser.error("the lanes path is AVX-512's: this processor has none")
    output = kernel_driver.run_driver(DRIVER, "x86-64-v4", [str(options.rounds)])
    print(f"x86-64-v4; one thread, thread CPU time per call, mean of {options.rounds} rounds.")
    print(output)


if __name__ == "__main__":
    main()
