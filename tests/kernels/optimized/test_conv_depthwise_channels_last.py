"""Note [Channels-last depthwise] (kernels/optimized/conv_depthwise_channels_last.h) gives
the NCHW kernels' bits, byte for byte, on random layers where Note [Direct depthwise] or
Note [Depthwise channels as lanes] computes them (3x3 and 5x5, stride 1 and 2), and their
values within rounding on the rest (other kernel sizes, stride 3, dilation 2, strides and
dilations that differ between rows and columns: Note [Padded depthwise]); channels 2..40
(fewer than a vector, and a last vector overlapping the one before), every epilogue, with
and without bias, pixels further apart than their channels (a slice of a wider tensor, as a
cat in place leaves), and it writes nothing between them. At 1 and 3 threads with AVX-512
(16 channels per vector), and with AVX2 (8)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.isa import best_level, isa_flags
from tests.workspace import REPO

PROGRAM = r"""
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/optimized/conv_depthwise.h"

// Each layer from the command line: channels, k_h, k_w, stride_h and stride_w (s or, as
// 10 s_h + s_w, two), pad_h, pad_w, dilation (the same way), in_h, in_w, batch, epilogue
// kind, bias (0/1), extra floats between pixels. Prints a letter per layer: "s" the NCHW
// kernels' bits, "t" a reference's values within rounding, "D" neither, "G" something was
// written between the pixels; then a digit per layer: 1 when a direct NCHW kernel computed
// it.
int main(int argc, char** argv) {
  std::string verdicts, direct;
  std::mt19937 random(5);
  std::uniform_real_distribution<float> uniform(-1.5f, 1.5f);
  for (int i = 1; i + 12 < argc; i += 13) {
    optimized::conv::Layer l{};
    const int channels = atoi(argv[i]);
    l.groups = channels, l.cin_g = 1, l.cout_g = 1;
    l.k_h = atoi(argv[i + 1]), l.k_w = atoi(argv[i + 2]);
    const int stride = atoi(argv[i + 3]), dilation = atoi(argv[i + 6]);
    l.stride_h = stride >= 10 ? stride / 10 : stride, l.stride_w = stride % 10;
    l.pad_h = atoi(argv[i + 4]), l.pad_w = atoi(argv[i + 5]);
    l.dil_h = dilation >= 10 ? dilation / 10 : dilation, l.dil_w = dilation % 10;
    l.in_h = atoi(argv[i + 7]), l.in_w = atoi(argv[i + 8]);
    l.batch = atoi(argv[i + 9]);
    const rt::Epilogue e{static_cast<rt::EpilogueKind>(atoi(argv[i + 10])), -0.25f, 0.5f};
    const bool with_bias = atoi(argv[i + 11]) != 0;
    const int extra = atoi(argv[i + 12]);
    l.out_h = (l.in_h + 2 * l.pad_h - l.dil_h * (l.k_h - 1) - 1) / l.stride_h + 1;
    l.out_w = (l.in_w + 2 * l.pad_w - l.dil_w * (l.k_w - 1) - 1) / l.stride_w + 1;
    l.w_row = l.k_h * l.k_w;
    l.bias_stride = 1;
    const int64_t in_plane = l.in_h * l.in_w, out_plane = l.out_h * l.out_w;
    std::vector<float> x(l.batch * channels * in_plane), w(channels * l.w_row), bias(channels);
    for (float& v : x) v = uniform(random);
    for (float& v : w) v = uniform(random);
    for (float& v : bias) v = uniform(random);
    for (size_t k = 0; k < x.size(); k += 5) x[k] = k % 10 == 0 ? 0.0f : -0.0f;
    // NCHW.
    optimized::conv::Layer nchw = l;
    nchw.x_c = in_plane, nchw.x_n = channels * in_plane, nchw.x_p = 1;
    nchw.y_c = out_plane, nchw.y_n = channels * out_plane, nchw.y_p = 1;
    direct += optimized::conv::direct_depthwise(nchw) != nullptr ? '1' : '0';
    std::vector<float> want(l.batch * channels * out_plane);
    const float* b = with_bias ? bias.data() : nullptr;
    if (!optimized::conv::depthwise(nchw, x.data(), w.data(), b, e, want.data())) return 2;
    // Channels last, pixels `extra` floats further apart than their channels.
    optimized::conv::Layer last = l;
    const int64_t pixel = channels + extra;
    last.x_c = 1, last.x_p = pixel, last.x_n = pixel * in_plane;
    last.y_c = 1, last.y_p = pixel, last.y_n = pixel * out_plane;
    if (!optimized::conv::depthwise_channels_last(last)) return 3;
    std::vector<float> xl(l.batch * last.x_n, 7.0f), got(l.batch * last.y_n + 1, 3.0f);
    for (int64_t n = 0; n < l.batch; ++n)
      for (int c = 0; c < channels; ++c)
        for (int64_t p = 0; p < in_plane; ++p)
          xl[n * last.x_n + p * pixel + c] = x[(n * channels + c) * in_plane + p];
    if (!optimized::conv::depthwise(last, xl.data(), w.data(), b, e, got.data())) return 2;
    // The reference: each output's window in double, then the epilogue.
    std::vector<float> reference(want.size());
    for (int64_t n = 0; n < l.batch; ++n)
      for (int c = 0; c < channels; ++c)
        for (int64_t oy = 0; oy < l.out_h; ++oy)
          for (int64_t ox = 0; ox < l.out_w; ++ox) {
            double sum = with_bias ? bias[c] : 0.0;
            for (int64_t ky = 0; ky < l.k_h; ++ky)
              for (int64_t kx = 0; kx < l.k_w; ++kx) {
                const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
                const int64_t ix = ox * l.stride_w - l.pad_w + kx * l.dil_w;
                if (iy < 0 || iy >= l.in_h || ix < 0 || ix >= l.in_w) continue;
                sum += double(w[c * l.w_row + ky * l.k_w + kx]) *
                       x[(n * channels + c) * in_plane + iy * l.in_w + ix];
              }
            float& r = reference[(n * channels + c) * out_plane + oy * l.out_w + ox];
            r = static_cast<float>(sum);
            optimized::finish_rows(&r, 1, 1, 0, nullptr, 0, e);
          }
    char verdict = 's';
    for (int64_t n = 0; n < l.batch; ++n)
      for (int64_t p = 0; p < out_plane; ++p) {
        for (int c = 0; c < pixel; ++c) {
          const float have = got[n * last.y_n + p * pixel + c];
          if (c >= channels) {
            if (have != 3.0f) verdict = 'G';
            continue;
          }
          const int64_t at = (n * channels + c) * out_plane + p;
          if (std::memcmp(&have, &want[at], sizeof have) == 0) continue;
          if (verdict != 'G' && verdict != 'D' &&
              std::fabs(have - reference[at]) <= 1e-5f * (1.0f + std::fabs(reference[at])))
            verdict = 't';
          else if (verdict != 'G')
            verdict = 'D';
        }
      }
    if (got.back() != 3.0f) verdict = 'G';
    verdicts += verdict;
  }
  printf("%s %s\n", verdicts.c_str(), direct.c_str());
  return 0;
}
"""

EPILOGUES = 6  # rt::EpilogueKind: None, Relu, Clamp, Hardswish, Sigmoid, Silu


def _layers() -> list[tuple[int, ...]]:
    """MobileNetV2's and EfficientNet-B0's layers (shrunk where wide), then random ones."""
    rng = random.Random(21)
    layers = [
        (96, 3, 3, 2, 1, 1, 1, 28, 28, 1, 2, 1, 0),
        (144, 3, 3, 1, 1, 1, 1, 14, 14, 1, 2, 1, 0),
        (960, 3, 3, 1, 1, 1, 1, 7, 7, 1, 2, 1, 0),
        (480, 5, 5, 1, 2, 2, 1, 14, 14, 1, 5, 1, 0),
        (672, 5, 5, 2, 2, 2, 1, 14, 14, 1, 5, 1, 0),
        (32, 3, 3, 1, 1, 1, 1, 56, 56, 1, 2, 1, 0),
        (40, 3, 3, 2, 1, 1, 1, 30, 34, 2, 3, 0, 24),
        # Strides and dilations that differ between rows and columns.
        (32, 3, 3, 12, 1, 1, 1, 17, 21, 1, 2, 1, 0),
        (32, 3, 3, 21, 1, 1, 1, 17, 21, 1, 1, 0, 0),
        (32, 3, 3, 1, 2, 1, 21, 17, 21, 1, 2, 1, 0),
        (20, 5, 5, 1, 2, 4, 12, 19, 23, 2, 5, 1, 3),
    ]
    while len(layers) < 300:
        k_h, k_w = (rng.choice((3, 5)),) * 2
        stride, dilation = rng.choice((1, 2)), 1
        if rng.random() < 0.25:  # past the direct kernels
            k_h, k_w = rng.choice((1, 2, 3, 4, 7)), rng.choice((1, 2, 3, 4, 7))
            stride, dilation = rng.choice((1, 2, 3)), rng.choice((1, 2))
        pad_h, pad_w = rng.randint(0, k_h), rng.randint(0, k_w)
        height, width = rng.randint(1, 20), rng.randint(1, 40)
        if height + 2 * pad_h < dilation * (k_h - 1) + 1:
            continue
        if width + 2 * pad_w < dilation * (k_w - 1) + 1:
            continue
        layers.append(
            (rng.randint(2, 40), k_h, k_w, stride, pad_h, pad_w, dilation, height, width)
            + (
                rng.randint(1, 2),
                rng.randrange(EPILOGUES),
                rng.randint(0, 1),
                rng.choice((0, 0, 5)),
            )
        )
    return layers


def _run(tmp_path: Path, level: str, threads: int) -> tuple[str, str]:
    source, program = tmp_path / "nhwc.cpp", tmp_path / "nhwc"
    source.write_text(PROGRAM)
    subprocess.run(
        ["c++", "-std=c++17", "-O1", f"-DOPT_THREADS={threads}", *isa_flags(level)]
        + ["-isystem", "/usr/include/eigen3", f"-I{REPO / 'selective_build'}", "-pthread"]
        + [str(source), "-o", str(program)],
        check=True,
        timeout=600,
    )
    arguments = [str(value) for layer in _layers() for value in layer]
    result = subprocess.run([str(program), *arguments], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    verdicts, direct = result.stdout.split()
    return verdicts, direct


@pytest.mark.parametrize(
    ("level", "threads"), [("x86-64-v4", 1), ("x86-64-v4", 3), ("x86-64-v3", 1)]
)
def test_channels_last_gives_the_nchw_kernels_bits(
    tmp_path: Path, level: str, threads: int
) -> None:
    if level == "x86-64-v4" and best_level() != "x86-64-v4":
        pytest.skip("no AVX-512 here")
    verdicts, direct = _run(tmp_path, level, threads)
    # Where a direct kernel computed the NCHW layer: the same bits; elsewhere (the padded
    # phases, whose sums Eigen may contract otherwise) the same values within rounding.
    for verdict, was_direct in zip(verdicts, direct, strict=True):
        assert verdict in ("s" if was_direct == "1" else "st"), (verdicts, direct)
    assert direct.count("1") > 150
