"""Which depthwise layers take Note [Direct depthwise] (kernels/optimized/conv_depthwise_direct.h)
rather than the padded phases: the direct path and the padded one compute the same numbers,
so the convolution's tests (test_op_convolution.py) would pass even if a layer they mean
for the direct kernels silently went the padded way. Here `direct_depthwise`, which
conv::depthwise asks, is asked for each layer of test_direct_depthwise."""

from __future__ import annotations

import subprocess
from pathlib import Path

from selective_build.codegen.isa import best_level, isa_flags
from tests.kernels.optimized.test_op_convolution import DIRECT_PLANES, _out_size
from tests.workspace import REPO

PROGRAM = r"""
#include <cstdio>
#include <cstdlib>

#include "kernels/optimized/conv_depthwise_direct.h"

// Each layer from the command line: k, stride, padding, height, width; prints 1 for the
// direct kernel, 0 for the padded phases.
int main(int argc, char** argv) {
  for (int i = 1; i + 4 < argc; i += 5) {
    optimized::conv::Layer l{};
    l.batch = 1, l.groups = 3, l.cin_g = 1, l.cout_g = 1;
    l.k_h = l.k_w = atoi(argv[i]);
    l.stride_h = l.stride_w = atoi(argv[i + 1]);
    l.pad_h = l.pad_w = atoi(argv[i + 2]);
    l.in_h = atoi(argv[i + 3]), l.in_w = atoi(argv[i + 4]);
    l.dil_h = l.dil_w = 1;
    l.out_h = (l.in_h + 2 * l.pad_h - l.k_h) / l.stride_h + 1;
    l.out_w = (l.in_w + 2 * l.pad_w - l.k_w) / l.stride_w + 1;
    printf("%d", optimized::conv::direct_depthwise(l) != nullptr);
  }
  printf("\n");
  return 0;
}
"""


def test_the_direct_depthwise_tests_take_the_direct_kernels(tmp_path: Path) -> None:
    layers: list[tuple[int, int, int, int, int]] = []
    for k in (3, 5):
        for stride in (1, 2):
            for padding in (0, 1, 2):
                for height, width in DIRECT_PLANES:
                    if height + 2 * padding >= k and width + 2 * padding >= k:
                        layers.append((k, stride, padding, height, width))
    source, program = tmp_path / "direct.cpp", tmp_path / "direct"
    source.write_text(PROGRAM)
    subprocess.run(
        ["c++", "-std=c++17", "-O0", *isa_flags(best_level()), "-isystem", "/usr/include/eigen3"]
        + [f"-I{REPO / 'selective_build'}", str(source), "-o", str(program)],
        check=True,
        timeout=600,
    )
    arguments = [str(value) for layer in layers for value in layer]
    result = subprocess.run([str(program), *arguments], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # Every layer of 4 output rows or more (a block, Note [Direct depthwise]) is direct; the
    # planes of fewer rows are the padded path's, as the test means them to be.
    want = "".join(
        "1" if _out_size(height, k, stride, padding, 1) >= 4 else "0"
        for k, stride, padding, height, _ in layers
    )
    assert result.stdout.strip() == want
