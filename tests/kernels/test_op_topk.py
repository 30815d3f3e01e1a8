from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import REAL, In, KernelRunner, Out, assert_fails
from tests.kernels.sort_cases import stable_order

OP = "aten::topk.values"


def run(
    kernel: KernelRunner, x: np.ndarray, k: int, dim: int, largest: bool, sorted_: bool = True
) -> None:
    """Values must be torch's; indices must point at them (torch leaves the order of ties open)."""
    values, _ = stable_order(x, dim, largest)
    shape = list(x.shape)
    if x.ndim:
        shape[dim] = k
        values = np.take(values, np.arange(k), axis=dim)
    got = kernel.run(
        OP,
        [In(x), k, dim, largest, sorted_, Out(x.dtype, tuple(shape)), Out(np.int64, tuple(shape))],
    )
    np.testing.assert_array_equal(got[0], values)
    picked = x if x.ndim == 0 else np.take_along_axis(x, got[1], dim)
    np.testing.assert_array_equal(picked, got[0])


@pytest.mark.parametrize("dtype", REAL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([[3, 1, 4, 9, 5, 8], [0, 2, 6, 7, 3, 1]]).astype(dtype)
    run(kernel, x, 3, -1, True)
    run(kernel, x, 2, 1, False)
    run(kernel, x, 1, 0, True)


def test_k_dims_and_ties(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(-4, 4, (3, 5, 7)).astype(np.float32)
    for dim, k in [(0, 2), (1, 5), (2, 3), (-1, 7), (2, 0), (1, 1)]:
        for largest in (True, False):
            run(kernel, x, k, dim, largest)
    run(kernel, x, 4, 2, True, False)
    y = rng.permutation(50).astype(np.int64).reshape(5, 10)
    got = kernel.run(OP, [In(y), 4, 1, True, True, Out(np.int64, (5, 4)), Out(np.int64, (5, 4))])
    np.testing.assert_array_equal(
        got[1], np.argsort(-y, axis=1)[:, :4]
    )  # no ties: indices are fixed


def test_nan_inf_empty_and_0_dim(kernel: KernelRunner) -> None:
    x = np.array([1.0, np.nan, -np.inf, np.inf, -0.5, 2.0], np.float32)
    run(kernel, x, 3, 0, True)  # NaN counts as the largest
    run(kernel, x, 3, 0, False)
    run(kernel, x.astype(np.float16), 2, 0, True)
    run(kernel, np.zeros((0, 4), np.int32), 2, 1, True)
    run(kernel, np.zeros((3, 0), np.int32), 0, 1, True)
    run(kernel, np.array(2.5, np.float64), 1, 0, True)
    run(kernel, np.array(2.5, np.float64), 0, -1, False)


def test_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([0.3, -1.5, 7.0, 2.0, -0.25], np.float32)
    values, _ = stable_order(to_bfloat16(x), 0, True)
    got = run_bfloat16(
        kernel, OP, [In(x), 2, 0, True, True, Out(np.float32, (2,)), Out(np.int64, (2,))]
    )
    np.testing.assert_array_equal(got[0], values[:2])
    np.testing.assert_array_equal(got[1], [2, 3])


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        (4, Out(np.float32, (2, 4)), Out(np.int64, (2, 4)), "k is out of range"),
        (-1, Out(np.float32, (2, 0)), Out(np.int64, (2, 0)), "k is out of range"),
        (2, Out(np.float32, (2, 2)), Out(np.int32, (2, 2)), "indices must be int64"),
        (2, Out(np.float32, (2, 3)), Out(np.int64, (2, 2)), "wrong shape"),
    ]
    for k, values, indices, message in cases:
        assert_fails(kernel, OP, [In(x), k, -1, True, True, values, indices], message)
    b = np.ones(3, np.bool_)
    assert_fails(
        kernel, OP, [In(b), 1, 0, True, True, Out(np.bool_, (1,)), Out(np.int64, (1,))], "Bool"
    )
