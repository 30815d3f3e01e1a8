"""The two layers where MobileNetV2 and EfficientNet-B0 lose most against XNNPACK, as the
model runs them: the 16 -> 96 1x1 convolution at 112x112, then the 96-channel 3x3 stride-2
depthwise layer that reads its 4.8 MB output, channels last, one thread, both with
MobileNetV2's relu6 epilogue or EfficientNet-B0's SiLU; beside them a plain 4.8 MB store
stream, which says how busy the machine's memory is.

Usage (from the repository root, with the project's Python)::

    python benchmarks/big_plane_pair.py [--calls 40] [--rounds 3] [--activation silu]
        [--level x86-64-v3]

Compiles a small C++ driver around kernels/optimized/conv_channels_last.h and
conv_depthwise_channels_last.h with the flags the build gives the optimized library's
objects for `--level` (by default the machine's own), and prints per round the least and
median thread CPU time of `--calls` calls of each. On a VM whose neighbours share the
memory, these layers' times move by 1.7x from one minute to the next while the store
stream moves with them (benchmarks/RESULTS.md, "Big planes and the machine's memory"): read
the layers against the stream of the same round, never across rounds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import kernel_driver  # noqa: E402
import latency  # noqa: E402

DRIVER = (
    kernel_driver.PRELUDE
    + r"""
#include "kernels/optimized/conv_channels_last.h"
#include "kernels/optimized/conv_depthwise_channels_last.h"

namespace {

// Least and median of `times`, in microseconds.
void print(const char* name, std::vector<double> times) {
  std::sort(times.begin(), times.end());
  printf("| %s | %.1f µs | %.1f µs |\n", name, times[0] * 1e6, times[times.size() / 2] * 1e6);
}

}  // namespace

int main(int, char** argv) {
  const int calls = atoi(argv[1]);
  const int64_t cin = 16, cout = 96, side = 112;
  optimized::conv::Layer expand{};
  expand.batch = 1, expand.groups = 1, expand.cin_g = cin, expand.cout_g = cout;
  expand.k_h = expand.k_w = 1, expand.stride_h = expand.stride_w = 1;
  expand.dil_h = expand.dil_w = 1, expand.in_h = expand.in_w = side;
  expand.out_h = expand.out_w = side, expand.w_row = cin, expand.bias_stride = 1;
  expand.x_c = 1, expand.x_p = cin, expand.x_n = cin * side * side;
  expand.y_c = 1, expand.y_p = cout, expand.y_n = cout * side * side;
  optimized::conv::Layer depthwise{};
  depthwise.batch = 1, depthwise.groups = cout, depthwise.cin_g = 1, depthwise.cout_g = 1;
  depthwise.k_h = depthwise.k_w = 3, depthwise.stride_h = depthwise.stride_w = 2;
  depthwise.pad_h = depthwise.pad_w = 1, depthwise.dil_h = depthwise.dil_w = 1;
  depthwise.in_h = depthwise.in_w = side, depthwise.out_h = depthwise.out_w = side / 2;
  depthwise.w_row = 9, depthwise.bias_stride = 1;
  depthwise.x_c = 1, depthwise.x_p = cout, depthwise.x_n = expand.y_n;
  depthwise.y_c = 1, depthwise.y_p = cout, depthwise.y_n = cout * (side / 2) * (side / 2);
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> x(expand.x_n), w(cout * cin), bias(cout), dw(cout * 9), taps(cout * 9);
  std::vector<float> y(depthwise.y_n);
  for (std::vector<float>* v : {&x, &w, &bias, &dw})
    for (float& value : *v) value = uniform(random);
  float* plane = static_cast<float*>(std::aligned_alloc(64, sizeof(float) * expand.y_n));
  optimized::conv::depthwise_taps(depthwise, dw.data(), taps.data());
  portable::View4 view;
  view.size[0] = cout, view.size[1] = cin, view.size[2] = view.size[3] = 1;
  view.stride[0] = cin, view.stride[1] = 1, view.stride[2] = view.stride[3] = 1;
  // argv[2]: the activation, as kernel_driver.ACTIVATIONS numbers it.
  const rt::Epilogue activation{static_cast<rt::EpilogueKind>(atoi(argv[2])), 0.0f, 6.0f};
  std::vector<double> stream, first, second;
  for (int call = 0; call < calls; ++call) {
    double start = cpu_seconds();
    for (int64_t i = 0; i < expand.y_n; i += opt::sgemm::kLanes)
      opt::sgemm::store(plane + i, opt::sgemm::splat(static_cast<float>(i)));
    __asm__ __volatile__("" ::: "memory");
    stream.push_back(cpu_seconds() - start);
    start = cpu_seconds();
    if (!optimized::conv::channels_last_conv(expand, true, true, view, x.data(), w.data(),
                                             bias.data(), nullptr, activation, plane))
      return 2;
    first.push_back(cpu_seconds() - start);
    start = cpu_seconds();
    if (!optimized::conv::depthwise_nhwc(depthwise, plane, dw.data(), bias.data(), activation,
                                         y.data(), taps.data()))
      return 2;
    second.push_back(cpu_seconds() - start);
  }
  print("4.8 MB store stream", stream);
  print("1x1 16 -> 96, 112x112", first);
  print("depthwise 96, 3x3 stride 2, after it", second);
  std::free(plane);
  return 0;
}
"""
)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    kernel_driver.add_activation_argument(parser)
    kernel_driver.add_level_argument(parser)
    options = parser.parse_args()
    kernel_driver.check_level(parser, options.level)
    print(f"Processor: {latency.processor()}. {options.level}; one thread, thread CPU per call.")
    for round_number in range(1, options.rounds + 1):
        arguments = [str(options.calls), str(kernel_driver.ACTIVATIONS[options.activation])]
        output = kernel_driver.run_driver(DRIVER, options.level, arguments)
        print(f"\nRound {round_number}:\n\n| call | least | median |\n|---|---:|---:|")
        print(output, end="")


if __name__ == "__main__":
    main()
