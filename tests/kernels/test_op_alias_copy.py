from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::alias_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_alias_copy_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    (out,) = kernel.run(OP, [In(x), Out(dtype, (2, 3, 4))])
    np.testing.assert_array_equal(out, x)


def test_alias_copy_across_dim_orders(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(OP, [In(x, dim_order=(0, 2, 3, 1)), Out(np.float32, (1, 2, 3, 4))])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(OP, [In(x), Out(np.float32, (1, 2, 3, 4), dim_order=(0, 2, 3, 1))])
    np.testing.assert_array_equal(out, x)


def test_alias_copy_0_dim_empty_and_dynamic(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(2.5, np.float64)), Out(np.float64, ())])
    assert out.shape == () and out == 2.5
    (out,) = kernel.run(OP, [In(np.zeros((0, 3), np.int32)), Out(np.int32, (0, 3))])
    assert out.shape == (0, 3)
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    (out,) = kernel.run(OP, [In(x), Out(np.int64, (4, 3), dynamic=True)])
    np.testing.assert_array_equal(out, x)


def test_alias_copy_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    assert_fails(kernel, OP, [In(x), Out(np.float64, (2, 3))], "out must have self's dtype")
    assert_fails(kernel, OP, [In(x), Out(np.float32, (3, 2))], "out has the wrong shape")
