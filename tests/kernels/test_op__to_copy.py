from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::_to_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_to_copy_every_dtype_to_float64_and_int8(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), False, None, Out(np.float64, (3, 4))])
    np.testing.assert_array_equal(out, x.astype(np.float64))
    (out,) = kernel.run(OP, [In(x), False, 0, Out(np.int8, (3, 4))])
    np.testing.assert_array_equal(out, x.astype(np.int8))


def test_to_copy_same_dtype_across_dim_orders(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(OP, [In(x, (0, 2, 3, 1)), False, 1, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, x)


def test_to_copy_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    assert_fails(kernel, OP, [In(x), True, None, Out(np.float32, (2, 3))], "non_blocking")
    assert_fails(kernel, OP, [In(x), False, 2, Out(np.float32, (2, 3))], "memory_format")
    assert_fails(kernel, OP, [In(x), False, None, Out(np.int32, (3, 2))], "wrong shape")
