"""Channels-last programs ExecuTorch's exporter wrote (Note [Channels last],
runtime/executor/channels_last.h; tests/runtime/programs/export_channels_last.py) give
eager's values on the optimized kernels at one and three threads (the same bytes at both),
and on portable's.

Each program runs three times (`--iterations 3`, outputs of the last run)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.kernels.conftest import all_runner, optimized_runner, threaded_runner
from tests.runtime.timed_runs import run_iterations

__all__ = ["all_runner", "optimized_runner", "threaded_runner"]

PROGRAMS = Path(__file__).resolve().parent / "programs"
NAMES = ("nhwc_blocks", "nhwc_pools", "nhwc_mixed")


def run(runner: Path, name: str, folder: Path) -> list[np.ndarray]:
    folder.mkdir()
    arrays = np.load(PROGRAMS / f"{name}.npz")
    inputs = [arrays[f"in{i}"] for i in range(sum(1 for k in arrays if k.startswith("in")))]
    outputs = sum(1 for k in arrays if k.startswith("out"))
    return run_iterations(runner, PROGRAMS / f"{name}.pte", inputs, outputs, folder)[1]


def expected(name: str) -> list[np.ndarray]:
    arrays = np.load(PROGRAMS / f"{name}.npz")
    return [arrays[f"out{i}"] for i in range(sum(1 for k in arrays if k.startswith("out")))]


@pytest.mark.parametrize("name", NAMES)
def test_channels_last_programs_match_eager_at_every_thread_count(
    name: str, optimized_runner: Path, threaded_runner: Path, all_runner: Path, tmp_path: Path
) -> None:
    one = run(optimized_runner, name, tmp_path / "one")
    three = run(threaded_runner, name, tmp_path / "three")
    portable = run(all_runner, name, tmp_path / "portable")
    for index, want in enumerate(expected(name)):
        assert one[index].tobytes() == three[index].tobytes(), index
        for got in (one[index], portable[index]):
            assert got.shape == want.shape and got.dtype == want.dtype, index
            if want.dtype == np.int64:  # max pool indices: h * W + w of each plane
                np.testing.assert_array_equal(got, want)
            else:
                # Folded batch norms and reordered sums: float rounding, no more.
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
