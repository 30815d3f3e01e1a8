from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "dim_order_ops::_clone_dim_order.out"


@pytest.mark.parametrize("dtype", ALL)
def test_clone_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), False, None, Out(dtype, x.shape)])
    np.testing.assert_array_equal(out, x)


def test_clone_changes_dim_order(kernel: KernelRunner) -> None:
    x = np.arange(120, dtype=np.float16).reshape(2, 3, 4, 5)
    cl = (0, 2, 3, 1)
    (out,) = kernel.run(OP, [In(x), False, IntList(cl), Out(np.float16, x.shape, dim_order=cl)])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(
        OP, [In(x, dim_order=cl), False, IntList((0, 1, 2, 3)), Out(np.float16, x.shape)]
    )
    np.testing.assert_array_equal(out, x)


def test_clone_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(np.nan, np.float32)), False, None, Out(np.float32, ())])
    assert out.shape == () and np.isnan(out)
    (out,) = kernel.run(OP, [In(np.zeros((2, 0), np.int64)), False, None, Out(np.int64, (2, 0))])
    assert out.shape == (2, 0)


def test_clone_dtype_mismatch_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.ones((2,), np.float32)), False, None, Out(np.float64, (2,))])
