from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::squeeze_copy.dims_out"


@pytest.mark.parametrize("dtype", ALL)
def test_squeeze_dims_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(6).reshape(1, 2, 1, 3) % 3).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((0, -2)), Out(dtype, (2, 3))])
    np.testing.assert_array_equal(out, x.reshape(2, 3))


def test_squeeze_keeps_non_singleton_and_0_dim(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    (out,) = kernel.run(OP, [In(x), IntList((1, 0)), Out(np.float32, (2, 3))])
    np.testing.assert_array_equal(out, x[0])
    (out,) = kernel.run(OP, [In(np.array(2.5, np.float64)), IntList((0,)), Out(np.float64, ())])
    assert out.shape == () and out == 2.5
    (out,) = kernel.run(OP, [In(np.zeros((0, 1), np.int8)), IntList((1,)), Out(np.int8, (0,))])
    assert out.shape == (0,)


def test_squeeze_bad_dim_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel, OP, [In(np.ones((1, 2), np.float32)), IntList((2,)), Out(np.float32, (2,))]
    )
