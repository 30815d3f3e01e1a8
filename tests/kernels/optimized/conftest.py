"""Optimized kernels against portable's, on the kernel tests' include-all runners, and the
convolution's, the matrix product's, the pools' and the fused epilogues' at every
instruction set level this machine runs (LEVEL_MANIFEST)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.isa import LEVELS, best_level
from selective_build.codegen.tolerances import mismatches, tolerance
from tests.kernels.conftest import (
    all_runner,
    optimized_only_runner,
    optimized_runner,
    threaded_runner,
)
from tests.kernels.harness import KernelRunner
from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, build_in_repository

__all__ = ["all_runner", "optimized_only_runner", "optimized_runner", "threaded_runner"]


def lower_levels() -> list[str]:
    """The x86-64 levels below this machine's best whose optimized kernels are other code
    (Note [Instruction sets]; x86-64-v2 has the baseline's vector width): the AVX2 and
    baseline branches the include-all runners, built at the best level, never run."""
    best = best_level()
    below = LEVELS[: LEVELS.index(best)] if best in LEVELS else ()
    return [level for level in below if level != "x86-64-v2"]


# The runners of the lower levels: the optimized library first (portable and prim for what
# it leaves out), with the operators of the tests run at every level: the convolution's,
# the matrix product's (on Long too, which goes to portable's kernel as on the include-all
# runners: Note [Dtype fallback chain], codegen/resolution.py), the pools', batch norm's,
# tests/runtime/test_fusion.py's programs, a channels-last net's (cat, mean, view_copy). A
# manifest of its own, so a kernel test session that does not ask for them builds none.
MM_DTYPES = ["Float", "Double", "Long"]
# And the optimized kernels alone (the `optimized` fixture's runner at each level) of the
# elementwise operators, whose vector math is 4 lanes wide at the baseline and 8 with AVX
# (kernels/optimized/elem/vmath.h), and of max pool.
ALONE_OPS = [
    f"aten::{name}"
    for name in (
        "add.out",
        "add.Scalar_out",
        "sub.out",
        "sub.Scalar_out",
        "mul.out",
        "mul.Scalar_out",
        "div.out",
        "div.Scalar_out",
        "pow.Tensor_Scalar_out",
        "relu.out",
        "hardtanh.out",
        "clamp.out",
        "hardswish.out",
        "hardsigmoid.out",
        "sigmoid.out",
        "tanh.out",
        "gelu.out",
        "rsqrt.out",
        "neg.out",
        "max_pool2d_with_indices.out",
    )
]
LEVEL_OPS = [
    "aten::convolution.out",
    "aten::_native_batch_norm_legit_no_training.out",
    "aten::add.out",
    "aten::add.Scalar_out",
    "aten::clamp.out",
    "aten::div.out",
    "aten::hardtanh.out",
    "aten::mul.out",
    "aten::relu.out",
    "aten::sigmoid.out",
    "aten::avg_pool2d.out",
    "aten::max_pool2d_with_indices.out",
    "aten::_adaptive_avg_pool2d.out",
    "dim_order_ops::_to_dim_order_copy.out",
    # test_channels_last_layouts.py's calls.
    "aten::cat.out",
    "aten::mean.out",
    "aten::view_copy.out",
]
LEVEL_MANIFEST = (
    "# Written by tests/kernels/optimized/conftest.py: the optimized kernels at lower levels.\n"
    + BOTH_LIBRARIES_FROM_BUILD
    + """
[toolchains.x86-64]
isa = "x86-64"
"""
    + "".join(
        f"""
[targets.optimized_{level}]
libraries = ["optimized", "portable", "prim"]
extra_ops = {json.dumps(LEVEL_OPS)}
op_dtypes = {{ "aten::mm.out" = {json.dumps(MM_DTYPES)} }}
toolchain = "{level}"

[targets.optimized_alone_{level}]
libraries = ["optimized"]
extra_ops = {json.dumps(ALONE_OPS)}
toolchain = "{level}"
"""
        for level in lower_levels()
    )
)

# The levels the tests of a module that sets EVERY_LEVEL = True run at: "best" is the
# include-all runners', the others LEVEL_MANIFEST's.
TESTED_LEVELS = ["best", *lower_levels()]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test of a module with EVERY_LEVEL = True once per level of TESTED_LEVELS: its
    `both`, `runners` and `optimized` are then the runners built at that level."""
    if getattr(metafunc.module, "EVERY_LEVEL", False) and "level" in metafunc.fixturenames:
        metafunc.parametrize("level", TESTED_LEVELS, indirect=True)


@pytest.fixture
def level(request: pytest.FixtureRequest) -> str:
    """The instruction set level of the optimized runners: "best" unless the module asks
    for every level (pytest_generate_tests)."""
    return str(getattr(request, "param", "best"))


@functools.cache
def level_runner(level: str, alone: bool = False) -> Path:
    """The optimized-first runner at a lower `level`, or the optimized kernels `alone`,
    built once per session."""
    target = f"optimized_alone_{level}" if alone else f"optimized_{level}"
    return build_in_repository("kernel-level-tests.toml", LEVEL_MANIFEST, target)


@pytest.fixture
def optimized_at_level(level: str, optimized_runner: Path) -> Path:
    """The optimized-first runner at `level`."""
    return optimized_runner if level == "best" else level_runner(level)


@dataclass(frozen=True)
class Runners:
    portable: KernelRunner
    optimized: KernelRunner
    threaded: KernelRunner | None  # optimized, threads = 3 (at the best level only)

    def _optimized(self, op: str, args: list[object]) -> np.ndarray:
        """The output of the optimized runner, checked to be identical bits on one and three
        threads (Note [Threads]) where there is a threaded runner."""
        (got,) = self.optimized.run(op, args)
        if self.threaded is not None:
            (threaded,) = self.threaded.run(op, args)
            assert got.tobytes() == threaded.tobytes()
        return got

    def same(self, op: str, args: list[object]) -> np.ndarray:
        """The output of `op` on the optimized runners, after checking it: identical bits on
        one and three threads, and equal to portable's. Callers choose inputs whose sums are
        exact (small integers in floats), so any order of summation gives the same bits."""
        (want,) = self.portable.run(op, args)
        got = self._optimized(op, args)
        np.testing.assert_array_equal(got, want)
        return got

    def close(self, op: str, args: list[object], terms: int) -> np.ndarray:
        """Like `same`, but for values whose sums round: optimized within the tolerance table
        of portable, the absolute one scaled by the `terms` of each sum (each term may round
        once; a different order of summation rounds differently)."""
        (want,) = self.portable.run(op, args)
        got = self._optimized(op, args)
        atol, rtol = tolerance(want.dtype.name)
        assert not mismatches(got, want, atol * max(terms, 1), rtol).any()
        return got


def _runners(all_runner: Path, optimized: Path, threaded: Path | None, tmp_path: Path) -> Runners:
    folders = [tmp_path / name for name in ("portable", "optimized", "threaded")]
    for folder in folders:
        folder.mkdir()
    return Runners(
        KernelRunner(all_runner, folders[0]),
        KernelRunner(optimized, folders[1]),
        KernelRunner(threaded, folders[2]) if threaded is not None else None,
    )


@pytest.fixture
def runners(
    level: str, all_runner: Path, optimized_at_level: Path, threaded_runner: Path, tmp_path: Path
) -> Runners:
    """Portable's runner and the optimized one at `level`, on three threads too at the best
    level (the threaded runner is built at that level only)."""
    threaded = threaded_runner if level == "best" else None
    return _runners(all_runner, optimized_at_level, threaded, tmp_path)


def small_integers(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """Values -3..3: every product and sum of a few thousand is exact in float32."""
    return rng.integers(-3, 4, shape).astype(dtype)


@pytest.fixture
def both(optimized_at_level: Path, all_runner: Path, tmp_path: Path) -> Both:
    return Both(KernelRunner(optimized_at_level, tmp_path), KernelRunner(all_runner, tmp_path))


class Both:
    """One call on the optimized-first runner (at each tested level) and on the portable one."""

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
def optimized(level: str, optimized_only_runner: Path, tmp_path: Path) -> KernelRunner:
    """The optimized kernels alone, at the library's own flags (-O2), at `level`."""
    scratch = tmp_path / "optimized"
    scratch.mkdir()
    runner = optimized_only_runner if level == "best" else level_runner(level, alone=True)
    return KernelRunner(runner, scratch)
