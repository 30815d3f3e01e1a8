from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::narrow_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_narrow_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 1, 1, 2, Out(dtype, (3, 2))])
    np.testing.assert_array_equal(out, x[:, 1:3])


@pytest.mark.parametrize(("dim", "start", "length"), [(0, -2, 2), (-1, 0, 3), (1, 4, 0), (2, 1, 1)])
def test_narrow_bounds_and_layouts(kernel: KernelRunner, dim: int, start: int, length: int) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    wrapped = start + x.shape[dim] if start < 0 else start
    expected = np.ascontiguousarray(np.take(x, range(wrapped, wrapped + length), axis=dim))
    (out,) = kernel.run(OP, [In(x, (1, 2, 0)), dim, start, length, Out(np.float32, expected.shape)])
    np.testing.assert_array_equal(out, expected)


def test_narrow_errors(kernel: KernelRunner) -> None:
    x = np.ones((3, 4), np.float32)
    for start, length in [(3, 2), (-5, 1), (0, -1), (5, 0)]:
        assert_fails(
            kernel, OP, [In(x), 1, start, length, Out(np.float32, (3, 1))], "start and length"
        )
    assert_fails(kernel, OP, [In(x), 2, 0, 1, Out(np.float32, (3, 1))], "dim is out of range")
    assert_fails(
        kernel, OP, [In(np.array(1.0, np.float32)), 0, 0, 1, Out(np.float32, ())], "at least 1 dim"
    )
