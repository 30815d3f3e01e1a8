"""Channels-last activations at load (Note [Channels last], runtime/executor/channels_last.h)
on programs ExecuTorch's exporter wrote as NCHW (tests/runtime/programs/export_prepared.py).

The runner's line `tensors channels last: N` counts the method's tensors in that dim order;
each count below is worked out from the program's graph, so a tensor changed that must stay
(or left that could change) shows. The outputs must still be eager's, and the same bytes on
one thread and three.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.kernels.conftest import optimized_runner, threaded_runner
from tests.runtime.timed_runs import run_iterations

__all__ = ["optimized_runner", "threaded_runner"]

PROGRAMS = Path(__file__).resolve().parent / "programs"
_CHANNELS_LAST = re.compile(r"^tensors channels last: (\d+)$", re.MULTILINE)
_FUSED = re.compile(r"^calls fused at load: (\d+), \d+ B$", re.MULTILINE)

CHANGED = {
    # The outs of the stem, project, relu, clamp, SiLU and gate convolutions and of the gate's
    # mul; the depthwise's out and the five outs of its hardswish as exported (add, clamp,
    # clamp, mul, div), the div's being the project's input. The residual's out stays: its
    # add writes the method's output.
    "conv_chains": 13,
    # The outs of the 1x1 mix convolution and of the two depthwise layers after it, which
    # the last (1x1) convolution reads. The first four depthwise layers, from the method's
    # input on, stay contiguous with it: a depthwise layer takes its input and out in one
    # layout (were each side free, 8 would change and the first would run portable's
    # loops on a mix).
    "depthwise_chains": 3,
    # The three squeeze convolutions' outs, each read by two convolutions; and the first
    # Fire module's two expand outs with the cat of them, which the next squeeze reads (a
    # cat copies channels-last parts pixel by pixel, and is then not placed in memory: eleven
    # calls fused or placed, not twelve). The other cats' sets stay: one writes the method's
    # output, one reads its input, and the third's parts stay with the first.
    "fire_cats": 6,
    # The first convolution's out, its max pool's out and unread indices. The second's out
    # and its max pool's out and indices stay: the indices are the method's output. The
    # third's out, the relu's, add's and average pool's (read by the mean) stay too: the
    # depthwise layer that also reads it takes its input and out in one layout, and its
    # out goes to a view (were each side free, 7 would change).
    "conv_pools": 3,
    # No convolution: the pools' tensors stay as exported.
    "max_pool_ceil": 0,
    # Both convolutions' outs are read through views the exporter's memory planning made
    # aliases (Note [Aliases in planned memory]): they stay, and so does the relu's out,
    # whose call takes it with the second's. Changed, the tokens came out transposed.
    "patch_tokens": 0,
}
FUSED = {
    "conv_chains": 7,
    "conv_pools": 2,
    "depthwise_chains": 8,
    "fire_cats": 11,
    "max_pool_ceil": 1,
    # The convolution -> relu is left: a view reads the convolution's out.
    "patch_tokens": 0,
}


def run(runner: Path, name: str, folder: Path) -> tuple[str, list[np.ndarray]]:
    folder.mkdir()
    arrays = np.load(PROGRAMS / f"{name}.npz")
    inputs = [arrays[k] for k in sorted(k for k in arrays if k.startswith("in"))]
    outputs = sum(1 for k in arrays if k.startswith("out"))
    return run_iterations(runner, PROGRAMS / f"{name}.pte", inputs, outputs, folder)


def count(pattern: re.Pattern[str], stdout: str) -> int:
    found = pattern.search(stdout)
    assert found is not None, stdout
    return int(found.group(1))


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_activations_between_convolutions_go_channels_last_and_match_eager(
    name: str, optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    stdout, outs = run(optimized_runner, name, tmp_path / "one")
    threaded_stdout, threaded = run(threaded_runner, name, tmp_path / "three")
    assert count(_CHANNELS_LAST, stdout) == count(_CHANNELS_LAST, threaded_stdout) == CHANGED[name]
    assert count(_FUSED, stdout) == FUSED[name]
    expected = np.load(PROGRAMS / f"{name}.npz")
    for index, (out, other) in enumerate(zip(outs, threaded, strict=True)):
        assert out.tobytes() == other.tobytes()
        np.testing.assert_allclose(out, expected[f"out{index}"], rtol=1e-5, atol=1e-5)
