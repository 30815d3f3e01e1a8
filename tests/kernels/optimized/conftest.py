"""Optimized kernels against portable's, on the kernel tests' include-all runners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.tolerances import mismatches, tolerance
from tests.kernels.conftest import (
    all_runner,
    optimized_only_runner,
    optimized_runner,
    threaded_runner,
)
from tests.kernels.harness import KernelRunner

__all__ = ["all_runner", "optimized_only_runner", "optimized_runner", "threaded_runner"]


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


@pytest.fixture
def both(optimized_runner: Path, all_runner: Path, tmp_path: Path) -> Both:
    return Both(KernelRunner(optimized_runner, tmp_path), KernelRunner(all_runner, tmp_path))


class Both:
    """One call on the optimized-first runner and on the portable one."""

    def __init__(self, optimized: KernelRunner, portable: KernelRunner) -> None:
        self.optimized = optimized
        self.portable = portable

    def compare(self, op: str, args: Sequence[object]) -> list[np.ndarray]:
        """The optimized outputs, after checking them against portable's: same dtypes and
        shapes, values within the tolerance table's row for their dtype."""
        fast = self.optimized.run(op, args)
        reference = self.portable.run(op, args)
        assert len(fast) == len(reference)
        for actual, expected in zip(fast, reference, strict=True):
            assert actual.dtype == expected.dtype and actual.shape == expected.shape
            atol, rtol = tolerance(expected.dtype.name)
            bad = mismatches(actual, expected, atol, rtol)
            assert not bad.any(), (np.argwhere(bad)[:5], actual[bad][:5], expected[bad][:5])
        return fast


@pytest.fixture
def optimized(optimized_only_runner: Path, tmp_path: Path) -> KernelRunner:
    """The optimized kernels alone, at the library's own flags (-O2)."""
    scratch = tmp_path / "optimized"
    scratch.mkdir()
    return KernelRunner(optimized_only_runner, scratch)
