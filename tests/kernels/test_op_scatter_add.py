from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::scatter_add.out"


def reference(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    out = x.copy()
    for c in np.ndindex(*index.shape):
        target = list(c)
        target[dim] = index[c]
        if out.dtype == np.bool_:
            out[tuple(target)] |= src[c]
        else:
            out[tuple(target)] += src[c]
    return out


@pytest.mark.parametrize("dtype", ALL)
def test_scatter_add_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 2).astype(dtype)
    index = np.array([[0, 2, 2, 0], [2, 2, 1, 0]], np.int64)  # repeated targets add up
    src = (np.arange(8).reshape(2, 4) % 3).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 0, In(index), In(src), Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, 0, index, src))


def test_scatter_add_wraps_integers_and_dim_1(kernel: KernelRunner) -> None:
    x = np.full((2, 2), 250, np.uint8)
    index = np.array([[1, 1], [0, 0]], np.int64)
    src = np.full((2, 2), 3, np.uint8)
    (out,) = kernel.run(OP, [In(x), 1, In(index), In(src), Out(np.uint8, (2, 2))])
    # Each row gets 3 twice at one column: 250 + 6 wraps to 0.
    np.testing.assert_array_equal(out, np.array([[250, 0], [0, 250]], np.uint8))


def test_scatter_add_errors(kernel: KernelRunner) -> None:
    x = np.zeros((3, 4), np.float32)
    out = Out(np.float32, (3, 4))
    assert_fails(
        kernel,
        OP,
        [In(x), 1, In(np.array([[4]])), In(np.ones((1, 1), np.float32)), out],
        "out of range",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), 1, In(np.array([[0]])), In(np.ones((1, 1), np.float64)), out],
        "self's dtype",
    )
