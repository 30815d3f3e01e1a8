"""The include-all runner with the optimized library first, for its kernel tests.

Built like the portable kernel runner (tests/kernels/conftest.py) in the repository's own
build/, with a toolchain at -O2 that finds Eigen's headers (what the optimized library is
meant to be compiled with). Every test compares it with the portable runner on one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from codegen.tolerances import mismatches, tolerance
from tests.kernels.harness import KernelRunner
from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, build_in_repository

MANIFEST = (
    "# Written by tests/kernels/optimized/conftest.py: the optimized library first.\n"
    + BOTH_LIBRARIES_FROM_BUILD
    + """
[libraries.optimized]
functions = "../kernels/optimized/functions.yaml"
sources = "../kernels/optimized"

[toolchains.host]
compiler = "c++"
cflags = ["-O2", "-I/usr/include/eigen3"]
strip = "strip"

[targets.optimized_kernel_tests]
libraries = ["optimized", "portable", "prim"]
include_all_operators = true
"""
)


@pytest.fixture(scope="session")
def optimized_runner() -> Path:
    return build_in_repository("optimized-kernel-tests.toml", MANIFEST, "optimized_kernel_tests")


@pytest.fixture
def both(optimized_runner: Path, all_runner: Path, tmp_path: Path) -> Both:
    return Both(KernelRunner(optimized_runner, tmp_path), KernelRunner(all_runner, tmp_path))


class Both:
    """One call on the optimized runner and on the portable one."""

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
