from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::nonzero.out"


@pytest.mark.parametrize("dtype", ALL)
def test_nonzero_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    # The number of rows depends on the values: out's shape is an upper bound.
    (out,) = kernel.run(OP, [In(x), Out(np.int64, (12, 2), dynamic=True)])
    np.testing.assert_array_equal(out, np.argwhere(x))


def test_nonzero_layouts_0_dim_and_none(kernel: KernelRunner) -> None:
    x = np.array([[[0.0, 1.5], [np.nan, 0.0]], [[-0.0, 2.0], [0.0, 0.0]]], np.float32)
    (out,) = kernel.run(OP, [In(x, (2, 0, 1)), Out(np.int64, (8, 3), dynamic=True)])
    np.testing.assert_array_equal(out, np.argwhere(x))
    (out,) = kernel.run(OP, [In(np.array(3, np.int32)), Out(np.int64, (1, 0), dynamic=True)])
    assert out.shape == (1, 0)
    (out,) = kernel.run(OP, [In(np.zeros((2, 2), np.int8)), Out(np.int64, (4, 2), dynamic=True)])
    assert out.shape == (0, 2)


def test_nonzero_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 2), np.float32)
    assert_fails(kernel, OP, [In(x), Out(np.int32, (4, 2), dynamic=True)], "out must be int64")
    assert_fails(
        kernel, OP, [In(x), Out(np.int64, (3, 2), dynamic=True)], "out has the wrong shape"
    )
    # A static out takes only the shape the values give (here 2 rows).
    eye = np.eye(2, dtype=np.float32)
    assert_fails(kernel, OP, [In(eye), Out(np.int64, (4, 2))], "out has the wrong shape")
