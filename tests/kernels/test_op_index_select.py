from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::index_select.out"


@pytest.mark.parametrize("dtype", ALL)
def test_index_select_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    idx = np.array([3, 0, 3], np.int64)
    (out,) = kernel.run(OP, [In(x), -1, In(idx), Out(dtype, (2, 3, 3))])
    np.testing.assert_array_equal(out, np.take(x, idx, axis=-1))


@pytest.mark.parametrize("dim", [0, 1])
def test_index_select_int32_index_and_channels_last(kernel: KernelRunner, dim: int) -> None:
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    idx = np.array([0, 0], np.int32)
    expected = np.take(x, idx, axis=dim)
    (out,) = kernel.run(
        OP, [In(x, dim_order=(0, 2, 3, 1)), dim, In(idx), Out(np.float32, expected.shape)]
    )
    np.testing.assert_array_equal(out, expected)


def test_index_select_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(7, np.int16)), 0, In(np.array([0])), Out(np.int16, ())])
    assert out == 7
    x = np.ones((2, 3), np.int8)
    (out,) = kernel.run(OP, [In(x), 1, In(np.zeros((0,), np.int64)), Out(np.int8, (2, 0))])
    assert out.shape == (2, 0)


def test_index_select_out_of_range_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel, OP, [In(np.ones((2, 3), np.float32)), 0, In(np.array([2])), Out(np.float32, (1, 3))]
    )
