from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::transpose_copy.int_out"


@pytest.mark.parametrize("dtype", ALL)
def test_transpose_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 0, -1, Out(dtype, (4, 3, 2))])
    np.testing.assert_array_equal(out, np.swapaxes(x, 0, -1))


def test_transpose_0_dim_and_same_dim(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(4.0, np.float32)), 0, -1, Out(np.float32, ())])
    assert out == 4.0
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    (out,) = kernel.run(OP, [In(x), 1, 1, Out(np.int16, (2, 3))])
    np.testing.assert_array_equal(out, x)


def test_transpose_bad_dim_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.ones((2, 3), np.float32)), 0, 2, Out(np.float32, (3, 2))])
