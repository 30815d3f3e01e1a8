from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::select_copy.int_out"


@pytest.mark.parametrize("dtype", ALL)
def test_select_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 1, -1, Out(dtype, (2, 4))])
    np.testing.assert_array_equal(out, x[:, -1, :])


def test_select_1_dim_gives_0_dim_and_channels_last(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array([1, 2, 3], np.int64)), 0, 2, Out(np.int64, ())])
    assert out.shape == () and out == 3
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(OP, [In(x, dim_order=(0, 2, 3, 1)), 1, 1, Out(np.float32, (1, 3, 4))])
    np.testing.assert_array_equal(out, x[:, 1])


def test_select_index_out_of_range_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.ones((2, 3), np.float32)), 0, 2, Out(np.float32, (3,))])
