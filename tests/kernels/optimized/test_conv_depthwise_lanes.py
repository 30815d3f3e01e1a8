"""Note [Depthwise channels as lanes] (kernels/optimized/conv_depthwise_lanes.h) gives the
bits of Note [Direct depthwise], byte for byte, on random layers (channels 1..40, planes
1..20 x 1..40, kernels 3 and 5, stride 1 and 2, padding up to past the kernel's reach, every
epilogue, with and without bias, an input whose channels are further apart than a plane;
and planes too large for one grid, cut into bands of output rows) at
1 and 2 threads; and it takes exactly the layers where it pays (lanes_cover).

The convolution's tests through the kernel (test_op_convolution.py) compare with portable's
loops within a tolerance; this one pins the claim that the two paths are the same numbers."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.isa import best_level, isa_flags
from tests.workspace import REPO

PROGRAM = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/optimized/conv_depthwise.h"

// Each layer from the command line: channels, k, stride, pad_h, pad_w, in_h, in_w, batch,
// epilogue kind, bias (0/1), extra floats between input channels. Prints, per layer, "s"
// (the same bits), "D" (they differ) or "-" (not a direct layer, or fewer pixels than a
// group of the lanes), then a digit per layer: 1 when lanes_cover takes it.
int main(int argc, char** argv) {
  std::string same, covered;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.5f, 1.5f);
  for (int i = 1; i + 10 < argc; i += 11) {
    optimized::conv::Layer l{};
    const int channels = atoi(argv[i]);
    l.groups = channels, l.cin_g = 1, l.cout_g = 1;
    l.k_h = l.k_w = atoi(argv[i + 1]);
    l.stride_h = l.stride_w = atoi(argv[i + 2]);
    l.pad_h = atoi(argv[i + 3]), l.pad_w = atoi(argv[i + 4]);
    l.in_h = atoi(argv[i + 5]), l.in_w = atoi(argv[i + 6]);
    l.batch = atoi(argv[i + 7]);
    const rt::Epilogue e{static_cast<rt::EpilogueKind>(atoi(argv[i + 8])), -0.25f, 0.5f};
    const bool with_bias = atoi(argv[i + 9]) != 0;
    l.dil_h = l.dil_w = 1;
    l.out_h = (l.in_h + 2 * l.pad_h - l.k_h) / l.stride_h + 1;
    l.out_w = (l.in_w + 2 * l.pad_w - l.k_w) / l.stride_w + 1;
    l.x_c = l.in_h * l.in_w + atoi(argv[i + 10]);
    l.x_n = channels * l.x_c;
    l.y_c = l.out_h * l.out_w;
    l.y_n = channels * l.y_c;
    l.w_row = l.k_h * l.k_w;
    l.bias_stride = 1;
    std::vector<float> x(l.batch * l.x_n), w(channels * l.w_row), bias(channels);
    for (float& v : x) v = uniform(random);
    for (float& v : w) v = uniform(random);
    for (float& v : bias) v = uniform(random);
    // Exact zeros and negative zeros among the inputs: the padding's zeros meet them.
    for (size_t k = 0; k < x.size(); k += 5) x[k] = k % 10 == 0 ? 0.0f : -0.0f;
    covered += optimized::conv::lanes_cover(l) ? '1' : '0';
    const optimized::conv::DirectPlane direct = optimized::conv::direct_depthwise(l);
    // The lanes compute any direct layer of a group of pixels or more, not only those
    // lanes_cover takes.
    if (direct == nullptr || l.out_h * l.out_w < optimized::conv::lanes::kGroup) {
      same += '-';
      continue;
    }
    // One float past the output: nothing may be written there.
    const size_t floats = l.batch * l.y_n;
    std::vector<float> want(floats + 1, 3.0f), got(floats + 1, 3.0f);
    for (int64_t n = 0; n < l.batch; ++n)
      for (int c = 0; c < channels; ++c)
        direct(l, x.data() + n * l.x_n + c * l.x_c, w.data() + c * l.w_row,
               with_bias ? bias[c] : 0.0f, e, want.data() + n * l.y_n + c * l.y_c);
    if (!optimized::conv::depthwise_lanes(l, x.data(), w.data(), with_bias ? bias.data() : nullptr,
                                          e, got.data()))
      return 2;
    same += std::memcmp(want.data(), got.data(), (floats + 1) * sizeof(float)) == 0 ? 's' : 'D';
  }
  printf("%s %s\n", same.c_str(), covered.c_str());
  return 0;
}
"""

EPILOGUES = 6  # rt::EpilogueKind: None, Relu, Clamp, Hardswish, Sigmoid, Silu


def _layers() -> list[tuple[int, ...]]:
    """Random layers, the real nets' narrow ones (MobileNetV2's 14x14 and 7x7, stride 1
    and 2; EfficientNet-B0's 5x5), and planes cut into bands."""
    rng = random.Random(21)
    layers = [
        (96, 3, 1, 1, 1, 14, 14, 1, 2, 1, 0),
        (192, 3, 2, 1, 1, 28, 28, 1, 2, 1, 0),
        (960, 3, 1, 1, 1, 7, 7, 1, 2, 1, 0),
        (480, 5, 1, 2, 2, 14, 14, 1, 5, 1, 0),
        (672, 5, 2, 2, 2, 14, 14, 1, 5, 1, 0),
        (1152, 5, 1, 2, 2, 7, 7, 1, 5, 1, 0),
        # Planes whose grid is cut into bands of output rows, the last overlapping the one
        # before: MobileNetV2's 112 -> 56 layer, a tall narrow plane, a 3 wide one.
        (20, 3, 2, 1, 1, 112, 112, 1, 2, 1, 0),
        (17, 5, 1, 2, 2, 203, 9, 1, 3, 0, 2),
        (3, 3, 2, 1, 0, 401, 7, 2, 5, 1, 0),
    ]
    while len(layers) < 300:
        k, stride = rng.choice((3, 5)), rng.choice((1, 2))
        pad_h, pad_w = rng.randint(0, k), rng.randint(0, k)
        height, width = rng.randint(1, 20), rng.randint(1, 40)
        if height + 2 * pad_h < k or width + 2 * pad_w < k:
            continue
        layers.append(
            (rng.randint(1, 40), k, stride, pad_h, pad_w, height, width, rng.randint(1, 2))
            + (rng.randrange(EPILOGUES), rng.randint(0, 1), rng.choice((0, 0, 3)))
        )
    return layers


def _out(size: int, k: int, stride: int, pad: int) -> int:
    return (size + 2 * pad - k) // stride + 1


def _pixels(layer: tuple[int, ...]) -> int:
    _, k, stride, pad_h, pad_w, height, width = layer[:7]
    return _out(height, k, stride, pad_h) * _out(width, k, stride, pad_w)


def _lanes_pay(layer: tuple[int, ...]) -> bool:
    """lanes_cover's widths (rows up to 56 wide at stride 2, 28 with a 5x5 kernel, 16 with a
    3x3 one), on planes of at least a group of 8 pixels."""
    _, k, stride, _, pad_w, _, width = layer[:7]
    narrow = _out(width, k, stride, pad_w) <= (56 if stride == 2 else 28 if k == 5 else 16)
    return narrow and _pixels(layer) >= 8


@pytest.mark.skipif(best_level() != "x86-64-v4", reason="the lanes path is AVX-512's")
@pytest.mark.parametrize("threads", [1, 2])
def test_lanes_give_the_direct_kernels_bits(tmp_path: Path, threads: int) -> None:
    source, program = tmp_path / "lanes.cpp", tmp_path / "lanes"
    source.write_text(PROGRAM)
    subprocess.run(
        ["c++", "-std=c++17", "-O1", f"-DOPT_THREADS={threads}", *isa_flags(best_level())]
        + ["-isystem", "/usr/include/eigen3", f"-I{REPO / 'selective_build'}", "-pthread"]
        + [str(source), "-o", str(program)],
        check=True,
        timeout=600,
    )
    layers = _layers()
    arguments = [str(value) for layer in layers for value in layer]
    result = subprocess.run([str(program), *arguments], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    same, covered = result.stdout.split()
    direct = [_out(layer[5], layer[1], layer[2], layer[3]) >= 4 for layer in layers]
    group = [_pixels(layer) >= 8 for layer in layers]
    assert same == "".join("s" if d and g else "-" for d, g in zip(direct, group, strict=True))
    assert same.count("s") > 150  # most random layers are direct ones
    want = "".join(
        "1" if d and _lanes_pay(layer) else "0" for d, layer in zip(direct, layers, strict=True)
    )
    assert covered == want
