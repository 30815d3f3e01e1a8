from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

SRC = "aten::scatter.src_out"
VALUE = "aten::scatter.value_out"


def reference(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray | float) -> np.ndarray:
    out = x.copy()
    for c in np.ndindex(*index.shape):
        target = list(c)
        target[dim] = index[c]
        out[tuple(target)] = src if not isinstance(src, np.ndarray) else src[c]
    return out


INDEX = np.array([[0, 2, 1, 0], [2, 0, 2, 1]], np.int64)


@pytest.mark.parametrize("dtype", ALL)
def test_scatter_src_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((3, 4), dtype)
    src = (np.arange(10).reshape(2, 5) % 3 + 1).astype(dtype)
    (out,) = kernel.run(SRC, [In(x), 0, In(INDEX), In(src), Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, 0, INDEX, src))


@pytest.mark.parametrize("dtype", ALL)
def test_scatter_value_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((3, 4), dtype)
    (out,) = kernel.run(VALUE, [In(x), 0, In(INDEX), 1, Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, 0, INDEX, 1))


def test_scatter_dim_int32_index_layouts_and_empty(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    index = np.array([[[3, 0]], [[1, 1]]], np.int32)
    src = -np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    (out,) = kernel.run(
        SRC, [In(x, (2, 0, 1)), -1, In(index), In(src, (1, 2, 0)), Out(np.float32, x.shape)]
    )
    np.testing.assert_array_equal(out, reference(x, 2, index, src))
    (out,) = kernel.run(
        VALUE, [In(x), 1, In(np.zeros((2, 0, 4), np.int64)), 2.5, Out(np.float32, x.shape)]
    )
    np.testing.assert_array_equal(out, x)


def test_scatter_errors(kernel: KernelRunner) -> None:
    x = np.zeros((3, 4), np.float32)
    src = np.ones((2, 4), np.float32)
    out = Out(np.float32, (3, 4))
    assert_fails(
        kernel, SRC, [In(x), 0, In(np.array([[3, 0, 0, 0]])), In(src), out], "index is out of range"
    )
    assert_fails(
        kernel,
        SRC,
        [In(x), 0, In(np.array([[-1, 0, 0, 0]])), In(src), out],
        "index is out of range",
    )
    assert_fails(
        kernel, SRC, [In(x), 0, In(INDEX.astype(np.float32)), In(src), out], "int64 or int32"
    )
    assert_fails(
        kernel,
        SRC,
        [In(x), 0, In(INDEX), In(src.astype(np.int32)), out],
        "src must have self's dtype",
    )
    assert_fails(kernel, SRC, [In(x), 0, In(INDEX), In(src[:, :3]), out], "no larger size")
    assert_fails(
        kernel,
        SRC,
        [In(x), 0, In(np.zeros((2, 5), np.int64)), In(np.ones((2, 5), np.float32)), out],
        "outside dim",
    )
    assert_fails(kernel, VALUE, [In(x), 2, In(INDEX), 1, out], "dim is out of range")
