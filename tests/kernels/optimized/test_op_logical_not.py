from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import LENGTHS, assert_both_fail, assert_matches


def mask(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2, shape).astype(np.bool_)


OP = "aten::logical_not.out"


def test_logical_not_matches_portable(optimized: KernelRunner, kernel: KernelRunner) -> None:
    for shape in [(n,) for n in LENGTHS] + [(1, 3, 5, 1), (), (2, 3, 4)]:
        x = mask(shape, len(shape))
        (out,) = assert_matches(optimized, kernel, OP, [In(x), Out(np.bool_, shape)])
        np.testing.assert_array_equal(out, ~x)


def test_logical_not_layouts(optimized: KernelRunner, kernel: KernelRunner) -> None:
    last = (0, 2, 3, 1)
    x = mask((2, 3, 4, 5), 1)
    for out in (Out(np.bool_, x.shape, last), Out(np.bool_, x.shape)):
        (got,) = assert_matches(optimized, kernel, OP, [In(x, last), out])
        np.testing.assert_array_equal(got, ~x)


def test_logical_not_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = mask((2, 3), 2)
    assert_both_fail(optimized, kernel, OP, [In(x), Out(np.bool_, (3, 2))], "")
