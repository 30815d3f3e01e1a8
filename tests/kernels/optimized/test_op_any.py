from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches

OP = "aten::any.out"


def mask(shape: tuple[int, ...], seed: int, density: float) -> np.ndarray:
    return np.random.default_rng(seed).random(shape) < density


# (shape, dim, keepdim): the last dim of a contiguous mask (one scan per row: rows
# shorter and longer than the scan's 8 bytes, all false, a single true at the end), and
# dims portable's walk takes.
CASES = [
    ((1, 3, 5, 197), -1, True),
    ((4, 7), 1, False),
    ((4, 9), -1, True),
    ((6, 16), 1, False),
    ((3,), 0, False),
    ((), 0, False),
    ((0, 5), 1, True),
    ((5, 0), 1, True),
    ((2, 3, 4), 0, False),
    ((2, 3, 4), 1, True),
]


@pytest.mark.parametrize(("shape", "dim", "keepdim"), CASES, ids=str)
@pytest.mark.parametrize("density", [0.0, 0.02, 0.5])
def test_any_matches_portable(
    optimized: KernelRunner,
    kernel: KernelRunner,
    shape: tuple[int, ...],
    dim: int,
    keepdim: bool,
    density: float,
) -> None:
    x = mask(shape, len(shape), density)
    want = np.any(x, axis=dim if shape else None, keepdims=keepdim and bool(shape))
    args = [In(x), dim, keepdim, Out(np.bool_, want.shape)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, want)


def test_any_last_element_of_a_row(optimized: KernelRunner) -> None:
    x = np.zeros((3, 19), np.bool_)
    x[1, 18] = True
    (out,) = optimized.run(OP, [In(x), -1, False, Out(np.bool_, (3,))])
    np.testing.assert_array_equal(out, [False, True, False])


def test_any_channels_last(optimized: KernelRunner, kernel: KernelRunner) -> None:
    last = (0, 2, 3, 1)
    x = mask((2, 3, 4, 5), 1, 0.2)
    args = [In(x, last), -1, True, Out(np.bool_, (2, 3, 4, 1))]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, np.any(x, axis=-1, keepdims=True))


def test_any_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = mask((2, 3), 2, 0.5)
    assert_both_fail(optimized, kernel, OP, [In(x), 2, False, Out(np.bool_, (2,))], "dim")
    assert_both_fail(optimized, kernel, OP, [In(x), 1, False, Out(np.float32, (2,))], "")
