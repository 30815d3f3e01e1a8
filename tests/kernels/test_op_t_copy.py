from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::t_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_t_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    (out,) = kernel.run(OP, [In(x), Out(dtype, (3, 2))])
    np.testing.assert_array_equal(out, x.T)


def test_t_of_1_dim_and_0_dim(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.arange(3, dtype=np.float32)), Out(np.float32, (3,))])
    np.testing.assert_array_equal(out, np.arange(3))
    (out,) = kernel.run(OP, [In(np.array(1, np.int64)), Out(np.int64, ())])
    assert out == 1


def test_t_of_3_dims_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.ones((2, 2, 2), np.float32)), Out(np.float32, (2, 2, 2))])
