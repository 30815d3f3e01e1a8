from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::squeeze_copy.dim_out"


@pytest.mark.parametrize("dtype", ALL)
def test_squeeze_dim_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 1, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 1, Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, x.reshape(3, 4))


def test_squeeze_dim_not_1_negative_and_0_dim(kernel: KernelRunner) -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 1, 4)
    (out,) = kernel.run(OP, [In(x, (2, 0, 1)), 0, Out(np.float32, (3, 1, 4))])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(OP, [In(x), -2, Out(np.float32, (3, 4))])
    np.testing.assert_array_equal(out, x.reshape(3, 4))
    (out,) = kernel.run(OP, [In(np.array(7, np.int32)), -1, Out(np.int32, ())])
    assert out.shape == () and out == 7


def test_squeeze_dim_errors(kernel: KernelRunner) -> None:
    x = np.ones((3, 1), np.float32)
    assert_fails(kernel, OP, [In(x), 2, Out(np.float32, (3,))], "dim is out of range")
    assert_fails(kernel, OP, [In(x), 1, Out(np.float32, (3, 1))], "wrong shape")
