from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::gather.out"


@pytest.mark.parametrize("dtype", ALL)
def test_gather_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    idx = np.array([[0, 2], [1, 0], [3, 3]], np.int64)
    (out,) = kernel.run(OP, [In(x), 1, In(idx), False, Out(dtype, idx.shape)])
    np.testing.assert_array_equal(out, np.take_along_axis(x, idx, 1))


def test_gather_dim_0_smaller_index_int32(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[[1, 0], [0, 1]]], np.int32)  # (1, 2, 2): smaller than self outside dim
    (out,) = kernel.run(OP, [In(x), 0, In(idx), False, Out(np.float32, idx.shape)])
    expected = np.array([[[x[idx[0, j, k], j, k] for k in range(2)] for j in range(2)]])
    np.testing.assert_array_equal(out, expected)


def test_gather_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(
        OP, [In(np.array(5, np.int64)), 0, In(np.array(0)), False, Out(np.int64, ())]
    )
    assert out == 5
    (out,) = kernel.run(
        OP,
        [
            In(np.ones((2, 2), np.int8)),
            1,
            In(np.zeros((2, 0), np.int64)),
            False,
            Out(np.int8, (2, 0)),
        ],
    )
    assert out.shape == (2, 0)


def test_gather_out_of_range_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel,
        OP,
        [
            In(np.ones((2, 3), np.float32)),
            1,
            In(np.array([[3]])),
            False,
            Out(np.float32, (1, 1)),
        ],
    )
