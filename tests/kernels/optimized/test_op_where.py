from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "aten::where.self_out"


def mask(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2, shape).astype(np.bool_)


# (condition, self, other) shapes: the fast loops (condition full, one value, or one per
# row; values full or one value, also 0-dim) and broadcasts they leave to portable's walk
# (a condition row, values broadcast along other dims).
SHAPES = [
    ((1, 3, 5, 1), (1, 3, 5, 33), (1, 3, 5, 33)),  # a safe softmax's row mask
    ((1, 3, 5, 1), (), (1, 3, 5, 33)),
    ((4, 17), (4, 17), (4, 17)),
    ((4, 17), (), (4, 17)),
    ((4, 17), (4, 17), (1,)),
    ((), (4, 17), (4, 17)),
    ((1,), (), ()),
    ((), (), ()),
    ((0, 3), (0, 3), (0, 3)),
    ((17,), (4, 17), (4, 17)),  # condition a row: portable's walk
    ((4, 1), (4, 17), (1, 17)),  # other a row: portable's walk
    ((2, 1, 3), (1, 4, 3), (2, 4, 1)),
]


@pytest.mark.parametrize(("cond", "a", "b"), SHAPES, ids=str)
def test_where_matches_portable(
    optimized: KernelRunner,
    kernel: KernelRunner,
    cond: tuple[int, ...],
    a: tuple[int, ...],
    b: tuple[int, ...],
) -> None:
    c, x, y = mask(cond, 1), random(a, 2), random(b, 3)
    shape = np.broadcast_shapes(cond, a, b)
    args = [In(c), In(x), In(y), Out(np.float32, shape)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, np.where(c, x, y))


def test_where_keeps_nan_and_signed_zero(optimized: KernelRunner) -> None:
    x = np.array([np.nan, -0.0, np.inf, 1.0], np.float32)
    y = np.array([-0.0, np.nan, 2.0, -np.inf], np.float32)
    c = np.array([True, False, True, False])
    (out,) = optimized.run(OP, [In(c), In(x), In(y), Out(np.float32, (4,))])
    assert out.tobytes() == np.where(c, x, y).tobytes()


def test_where_other_layouts_and_dtypes(optimized: KernelRunner, kernel: KernelRunner) -> None:
    last = (0, 2, 3, 1)
    c, x, y = mask((2, 3, 4, 5), 4), random((2, 3, 4, 5), 5), random((2, 3, 4, 5), 6)
    shape = x.shape
    calls = [
        # Channels-last tensors: portable's walk.
        [In(c, last), In(x, last), In(y), Out(np.float32, shape, last)],
        # Bool and Float values (out Float: the result type), and all Bool.
        [In(c), In(c), In(y), Out(np.float32, shape)],
        [In(c), In(mask(shape, 7)), In(mask(shape, 8)), Out(np.bool_, shape)],
    ]
    for args in calls:
        (out,) = assert_matches(optimized, kernel, OP, args)
        assert out.tobytes() == kernel.run(OP, args)[0].tobytes()


def test_where_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    c, x = mask((2, 3), 9), random((2, 3), 10)
    assert_both_fail(
        optimized, kernel, OP, [In(x), In(x), In(x), Out(np.float32, (2, 3))], "dtype Float"
    )
    assert_both_fail(optimized, kernel, OP, [In(c), In(x), In(x), Out(np.bool_, (2, 3))], "result")
    assert_both_fail(
        optimized, kernel, OP, [In(c), In(x), In(random((4,), 11)), Out(np.float32, (2, 3))], ""
    )
    assert_both_fail(optimized, kernel, OP, [In(c), In(x), In(x), Out(np.float32, (3, 2))], "")
