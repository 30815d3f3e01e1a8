"""Optimized kernels against portable's, on the kernel tests' include-all runners."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from codegen.tolerances import mismatches, tolerance
from tests.kernels.conftest import all_runner, optimized_runner, threaded_runner
from tests.kernels.harness import KernelRunner

__all__ = ["all_runner", "optimized_runner", "threaded_runner"]


@dataclass(frozen=True)
class Runners:
    portable: KernelRunner
    optimized: KernelRunner
    threaded: KernelRunner  # optimized, threads = 3

    def same(self, op: str, args: list[object]) -> np.ndarray:
        """The output of `op` on the optimized runners, after checking it: identical bits on
        one and three threads (Note [Threads]), and equal to portable's. Callers choose
        inputs whose sums are exact (small integers in floats), so any order of summation
        gives the same bits."""
        (want,) = self.portable.run(op, args)
        (got,) = self.optimized.run(op, args)
        (threaded,) = self.threaded.run(op, args)
        assert got.tobytes() == threaded.tobytes()
        np.testing.assert_array_equal(got, want)
        return got

    def close(self, op: str, args: list[object], terms: int) -> np.ndarray:
        """Like `same`, but for values whose sums round: optimized within the tolerance table
        of portable, the absolute one scaled by the `terms` of each sum (each term may round
        once; a different order of summation rounds differently)."""
        (want,) = self.portable.run(op, args)
        (got,) = self.optimized.run(op, args)
        (threaded,) = self.threaded.run(op, args)
        assert got.tobytes() == threaded.tobytes()
        atol, rtol = tolerance(want.dtype.name)
        assert not mismatches(got, want, atol * max(terms, 1), rtol).any()
        return got


@pytest.fixture
def runners(
    all_runner: Path, optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> Runners:
    folders = [tmp_path / name for name in ("portable", "optimized", "threaded")]
    for folder in folders:
        folder.mkdir()
    return Runners(
        KernelRunner(all_runner, folders[0]),
        KernelRunner(optimized_runner, folders[1]),
        KernelRunner(threaded_runner, folders[2]),
    )


def small_integers(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """Values -3..3: every product and sum of a few thousand is exact in float32."""
    return rng.integers(-3, 4, shape).astype(dtype)
