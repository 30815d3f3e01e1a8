from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import (
    ALL,
    In,
    InOptionalList,
    KernelRunner,
    Out,
    assert_fails,
)

OP = "aten::index.Tensor_out"


def reference(x: np.ndarray, indices: tuple[np.ndarray | None, ...]) -> np.ndarray:
    """numpy's advanced indexing is torch's: None takes a whole dim, uint8 is a mask."""
    key = tuple(
        slice(None) if i is None else (i.astype(np.bool_) if i.dtype == np.uint8 else i)
        for i in indices
    )
    return np.asarray(x[key])


def run(
    kernel: KernelRunner, x: np.ndarray, *indices: np.ndarray | None, order: object = None
) -> None:
    expected = reference(x, indices)
    (out,) = kernel.run(OP, [In(x, order), InOptionalList(indices), Out(x.dtype, expected.shape)])
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    run(kernel, x, np.array([2, 0, 2]))
    run(kernel, x, None, np.array([[1, 3], [0, 0]], np.int32))


def test_integer_indices(kernel: KernelRunner) -> None:
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    run(kernel, x, np.array([0, -1, 1]))  # negative indices count from the end
    run(kernel, x, np.array([0, 2]), np.array([1, 3]))  # pointwise
    run(kernel, x, np.array([[0], [2]]), np.array([1, 3, 0]))  # broadcast to (2, 3)
    run(kernel, x, None, np.array([3, 0]), np.array([[4], [1]]))  # adjacent: stay in place
    run(kernel, x, np.array([1, 2]), None, np.array([4, 0]))  # separated: go first
    run(kernel, x, np.array(1), None, np.array([4, 0]))  # 0-dim index
    run(kernel, x, np.array([1, 2]), np.array(0), np.array(3))
    run(kernel, x, None, None, np.array([], np.int64))  # empty index
    run(kernel, x, np.array([2, 1]), order=(2, 0, 1))


def test_masks(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    mask = x[0] % 3 == 1
    run(kernel, x, None, mask)
    run(kernel, x, x % 5 == 0)
    run(kernel, x, np.array([True, False]))
    run(kernel, x, np.array([1, 0], np.uint8), None, np.array([3, 1]))
    run(kernel, x, None, np.array([False, False, False]))  # nothing selected
    run(kernel, x, np.array([True, True]), np.array([[0, 2]]))
    run(kernel, x, None, np.array([True, False, True]), np.array([0, 3]))


def test_float_values_and_0_dim_self(kernel: KernelRunner) -> None:
    f = np.array([np.nan, np.inf, -np.inf, -0.0], np.float64)
    run(kernel, f, np.array([3, 0, 1, 2, 0]))
    run(kernel, np.array(5.0, np.float32), np.array(True))
    run(kernel, np.array(5.0, np.float32), np.array(False))
    run(kernel, np.zeros((0, 3), np.int8), None, np.array([1, 2]))


def test_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([[0.3, -1.5, 7.0], [2.0, -0.25, 1.0]], np.float32)
    (out,) = run_bfloat16(
        kernel, OP, [In(x), InOptionalList((np.array([1, 0]),)), Out(np.float32, (2, 3))]
    )
    np.testing.assert_array_equal(out, to_bfloat16(x)[[1, 0]])


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        ((np.array([2]),), Out(np.float32, (1, 3)), "index is out of range"),
        ((np.array([-3]),), Out(np.float32, (1, 3)), "index is out of range"),
        ((np.array([0.5]),), Out(np.float32, (1, 3)), "must be int64, int32, bool or uint8"),
        ((None, None, np.array([0])), Out(np.float32, (2, 3)), "too many indices"),
        ((np.array([True, False, True]),), Out(np.float32, (2, 3)), "mask's shape"),
        ((np.array([0, 1]), np.array([0, 1, 2])), Out(np.float32, (2,)), "cannot be broadcast"),
        ((np.array([0]),), Out(np.float64, (1, 3)), "out must have self's dtype"),
        ((np.array([0]),), Out(np.float32, (2, 3)), "wrong shape"),
    ]
    for indices, out, message in cases:
        assert_fails(kernel, OP, [In(x), InOptionalList(indices), out], message)
