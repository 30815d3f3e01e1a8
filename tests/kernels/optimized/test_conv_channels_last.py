"""kernels/optimized/conv_channels_last.h on its own (Note [Channels-last GEMM]), for every
instruction set this machine runs (Note [Indirect microkernel]'s AVX-512, AVX2 and 4-lane
code): 1x1 at stride 1 and 2, 3x3 and 7x7 with padding, dilation, groups, few input channels
(Note [Row taps]), panels of one vector's columns, one pixel, several images, each of the
three layouts (input or out or both channels last), an exported or a channels-last weight,
prepared with its offsets or packed per call, no bias, a bias or a strided one, each
epilogue, against a plain loop; the same bits on one thread and on three (Note
[Threads])."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernels.optimized.drivers import levels_here, run_driver

PROGRAM = r"""
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/optimized/conv_channels_last.h"

static float value(uint32_t* state) {
  *state = *state * 1664525u + 1013904223u;
  return float(*state >> 8) / float(1u << 23) - 1.0f;
}

static uint64_t hash = 1469598103934665603ull;
static void mix(const float* data, size_t count) {
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < count * sizeof(float); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
}

// One layer: batch, groups, cin_g, cout_g, h, w, kernel, stride, pad, dilation; layouts
// x_last, y_last, a channels-last weight, a bias (0 none, 1 dense, 2 strided), an epilogue
// (0 none, 1 relu, 2 clamp, 3 hardswish), prepared. Returns the wrong outputs.
static int check(int batch, int groups, int cin_g, int cout_g, int h, int w, int k, int s, int pad,
                 int dil, bool x_last, bool y_last, bool w_last, int bias_kind, int act,
                 bool prepared) {
  uint32_t state = uint32_t(batch * 7 + groups * 13 + cin_g * 17 + cout_g * 19 + h * 23 + k * 29);
  const int cin = groups * cin_g, cout = groups * cout_g;
  const int oh = (h + 2 * pad - dil * (k - 1) - 1) / s + 1;
  const int ow = (w + 2 * pad - dil * (k - 1) - 1) / s + 1;
  std::vector<float> x(size_t(batch) * cin * h * w), wt(size_t(cout) * cin_g * k * k),
      bias(size_t(cout) * 2), y(size_t(batch) * cout * oh * ow, 99.0f);
  for (float& v : x) v = value(&state);
  for (float& v : wt) v = value(&state);
  for (float& v : bias) v = value(&state);
  portable::ConvCall c;
  auto set = [](portable::View4& v, int64_t n, int64_t ch, int64_t hh, int64_t ww, bool last) {
    const int64_t sz[4] = {n, ch, hh, ww};
    const int64_t st_nchw[4] = {ch * hh * ww, hh * ww, ww, 1};
    const int64_t st_last[4] = {ch * hh * ww, 1, ww * ch, ch};
    for (int d = 0; d < 4; ++d) v.size[d] = sz[d], v.stride[d] = last ? st_last[d] : st_nchw[d];
  };
  set(c.x, batch, cin, h, w, x_last);
  set(c.w, cout, cin_g, k, k, w_last);
  set(c.y, batch, cout, oh, ow, y_last);
  c.bias_stride = bias_kind == 2 ? 2 : 1;
  c.stride[0] = c.stride[1] = s;
  c.padding[0] = c.padding[1] = pad;
  c.dilation[0] = c.dilation[1] = dil;
  c.groups = groups;
  c.transposed = false;
  const optimized::conv::Layer l = optimized::conv::layer_of(c);
  rt::Epilogue e{rt::EpilogueKind::None, 0.0f, 0.0f};
  if (act == 1) e.kind = rt::EpilogueKind::Relu;
  if (act == 2) e = rt::Epilogue{rt::EpilogueKind::Clamp, -0.5f, 0.75f};
  if (act == 3) e.kind = rt::EpilogueKind::Hardswish;
  std::vector<float> packed_memory;
  const opt::PreparedGemm* packed = nullptr;
  if (prepared) {
    const optimized::conv::Layer gemm = optimized::conv::gemm_layer(l, x_last);
    packed_memory.resize(optimized::conv::prepared_bytes(l, gemm) / sizeof(float) + 16);
    packed = optimized::conv::write_prepared(packed_memory.data(), l, gemm, c.w, wt.data());
  }
  const float* b = bias_kind == 0 ? nullptr : bias.data();
  if (!optimized::conv::channels_last_conv(l, x_last, y_last, c.w, x.data(), wt.data(), b, packed,
                                           e, y.data()))
    return 1;
  mix(y.data(), y.size());
  int bad = 0;
  for (int n = 0; n < batch; ++n)
    for (int o = 0; o < cout; ++o)
      for (int py = 0; py < oh; ++py)
        for (int px = 0; px < ow; ++px) {
          const int g = o / cout_g;
          double sum = b != nullptr ? b[o * c.bias_stride] : 0.0, size = std::fabs(sum);
          for (int i = 0; i < cin_g; ++i)
            for (int ky = 0; ky < k; ++ky)
              for (int kx = 0; kx < k; ++kx) {
                const int iy = py * s - pad + ky * dil, ix = px * s - pad + kx * dil;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                const int ch = g * cin_g + i;
                const double a = x[n * c.x.stride[0] + ch * c.x.stride[1] + iy * c.x.stride[2] +
                                   ix * c.x.stride[3]];
                const double m = wt[optimized::conv::weight_at(c.w, o, i, ky, kx)];
                sum += a * m;
                size += std::fabs(a * m);
              }
          float want = float(sum);
          optimized::finish_rows(&want, 1, 1, 0, nullptr, 0, e);
          const float got = y[n * c.y.stride[0] + o * c.y.stride[1] + py * c.y.stride[2] +
                              px * c.y.stride[3]];
          if (!(std::fabs(got - want) <= 1e-5 * (size + 1)) && bad++ == 0)
            printf("layer %dx%d g%d %d->%d k%d s%d p%d d%d layouts %d%d%d bias %d act %d: "
                   "y[%d][%d][%d][%d] = %g, want %g\n",
                   h, w, groups, cin_g, cout_g, k, s, pad, dil, x_last, y_last, w_last, bias_kind,
                   act, n, o, py, px, got, want);
        }
  return bad;
}

int main() {
  // batch, groups, cin_g, cout_g, h, w, k, stride, pad, dilation
  const int layers[][10] = {
      {1, 1, 16, 32, 7, 7, 1, 1, 0, 1},   {1, 1, 8, 40, 15, 15, 1, 1, 0, 1},
      {2, 1, 5, 33, 9, 11, 3, 1, 1, 1},   {1, 1, 16, 64, 14, 14, 3, 2, 1, 1},
      {1, 1, 3, 24, 23, 21, 7, 2, 3, 1},  {1, 1, 12, 20, 13, 13, 1, 2, 0, 1},
      {1, 4, 6, 10, 10, 12, 3, 1, 1, 1},  {3, 2, 8, 8, 5, 6, 3, 1, 2, 2},
      {1, 1, 7, 1, 4, 17, 3, 3, 0, 1},    {1, 1, 300, 70, 3, 5, 2, 1, 1, 1},
      {2, 1, 4, 9, 1, 1, 1, 1, 0, 1},     {1, 1, 1, 17, 6, 6, 5, 1, 2, 1},
      {1, 1, 16, 16, 12, 13, 3, 1, 1, 1}, {2, 1, 20, 48, 6, 7, 1, 1, 0, 1},
  };
  int bad = 0, checks = 0;
  for (const auto& s : layers)
    for (int layouts = 1; layouts < 4; ++layouts)
      for (int variant = 0; variant < 8; ++variant) {
        bad += check(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], layouts & 1,
                     layouts & 2, variant & 1, variant % 3, variant % 4, variant & 2) != 0;
        ++checks;
      }
  printf("%d of %d layers wrong, hash %016llx\n", bad, checks, (unsigned long long)hash);
  return bad != 0;
}
"""


@pytest.mark.parametrize("isa", levels_here())
def test_channels_last_conv_matches_a_plain_loop_with_the_same_bits_on_any_thread_count(
    tmp_path: Path, isa: str
) -> None:
    one = run_driver(tmp_path, "conv", PROGRAM, isa, 1)
    assert one.startswith("0 of 336 layers wrong"), one
    assert run_driver(tmp_path, "conv", PROGRAM, isa, 3) == one
