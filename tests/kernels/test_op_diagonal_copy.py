from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::diagonal_copy.out"


def diagonal(x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    return np.ascontiguousarray(np.diagonal(x, offset, dim1, dim2))


@pytest.mark.parametrize("dtype", ALL)
def test_diagonal_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 0, 0, 1, Out(dtype, (3,))])
    np.testing.assert_array_equal(out, diagonal(x, 0, 0, 1))


@pytest.mark.parametrize(
    ("offset", "dim1", "dim2"),
    [(1, 0, 1), (-2, 0, 1), (2, 2, 0), (-1, -1, 1), (9, 0, 1), (-9, 1, 2)],
)
def test_diagonal_offsets_and_dims(kernel: KernelRunner, offset: int, dim1: int, dim2: int) -> None:
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    expected = diagonal(x, offset, dim1, dim2)
    (out,) = kernel.run(OP, [In(x, (2, 0, 1)), offset, dim1, dim2, Out(np.float32, expected.shape)])
    np.testing.assert_array_equal(out, expected)


def test_diagonal_extreme_offsets_are_empty(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for offset in (-(2**63), 2**63 - 1, 3, -2):
        (out,) = kernel.run(OP, [In(x), offset, 0, 1, Out(np.float32, (0,))])
        assert out.shape == (0,)


def test_diagonal_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    assert_fails(kernel, OP, [In(x), 0, 1, 1, Out(np.float32, (2,))], "dim1 and dim2 must differ")
    assert_fails(kernel, OP, [In(x), 0, 0, 2, Out(np.float32, (2,))], "dim is out of range")
    assert_fails(
        kernel, OP, [In(np.ones(3, np.float32)), 0, 0, 1, Out(np.float32, (3,))], "at least 2 dims"
    )
    assert_fails(kernel, OP, [In(x), 0, 0, 1, Out(np.float32, (3,))], "wrong shape")
