from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::select_scatter.out"


def reference(x: np.ndarray, src: np.ndarray, dim: int, index: int) -> np.ndarray:
    out = x.copy()
    where = [slice(None)] * x.ndim
    where[dim] = index
    out[tuple(where)] = src
    return out


@pytest.mark.parametrize("dtype", ALL)
def test_select_scatter_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((3, 4), dtype)
    src = (np.arange(4) % 2 + 1).astype(dtype)
    (out,) = kernel.run(OP, [In(x), In(src), 0, 1, Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, src, 0, 1))


def test_select_scatter_negative_and_layouts(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    src = -np.arange(6, dtype=np.float32).reshape(2, 3)
    (out,) = kernel.run(OP, [In(x, (2, 0, 1)), In(src, (1, 0)), -1, -1, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, reference(x, src, 2, -1))


def test_select_scatter_errors(kernel: KernelRunner) -> None:
    x = np.zeros((3, 4), np.float32)
    out = Out(np.float32, (3, 4))
    assert_fails(
        kernel, OP, [In(x), In(np.ones(4, np.float32)), 0, 3, out], "index is out of range"
    )
    assert_fails(
        kernel, OP, [In(x), In(np.ones(3, np.float32)), 0, 0, out], "self's shape without dim"
    )
    assert_fails(
        kernel, OP, [In(x), In(np.ones(4, np.int64)), 0, 0, out], "src must have self's dtype"
    )
    assert_fails(kernel, OP, [In(x), In(np.ones(4, np.float32)), 2, 0, out], "dim is out of range")
