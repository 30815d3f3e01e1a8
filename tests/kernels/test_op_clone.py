from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::clone.out"


@pytest.mark.parametrize("dtype", ALL)
def test_clone_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    (out,) = kernel.run(OP, [In(x), None, Out(dtype, x.shape)])
    np.testing.assert_array_equal(out, x)


def test_clone_into_other_dim_order_empty_and_dynamic(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(OP, [In(x), 0, Out(np.float32, x.shape, dim_order=(0, 2, 3, 1))])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(OP, [In(np.zeros((0, 2), np.int8)), 1, Out(np.int8, (0, 2))])
    assert out.shape == (0, 2)
    (out,) = kernel.run(
        OP, [In(np.ones((2, 2), np.int64)), None, Out(np.int64, (3, 3), dynamic=True)]
    )
    np.testing.assert_array_equal(out, np.ones((2, 2), np.int64))


def test_clone_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    assert_fails(kernel, OP, [In(x), 2, Out(np.float32, (2, 3))], "memory_format")
    assert_fails(kernel, OP, [In(x), None, Out(np.float64, (2, 3))], "self's dtype")
    assert_fails(kernel, OP, [In(x), None, Out(np.float32, (3, 3))], "wrong shape")
