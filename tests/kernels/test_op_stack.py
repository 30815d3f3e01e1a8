from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, InList, KernelRunner, Out, assert_fails

OP = "aten::stack.out"


@pytest.mark.parametrize("dtype", ALL)
def test_stack_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    a = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    b = (np.arange(6).reshape(2, 3) % 3).astype(dtype)
    (out,) = kernel.run(OP, [InList((a, b)), 1, Out(dtype, (2, 2, 3))])
    np.testing.assert_array_equal(out, np.stack([a, b], 1))


@pytest.mark.parametrize("dim", [0, 2, -1])
def test_stack_dims_and_0_dim(kernel: KernelRunner, dim: int) -> None:
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    expected = np.stack([a, -a, a * 5], dim)
    (out,) = kernel.run(OP, [InList((a, -a, a * 5)), dim, Out(np.int64, expected.shape)])
    np.testing.assert_array_equal(out, expected)
    s = np.array(2.5, np.float32)
    (out,) = kernel.run(OP, [InList((s, s)), 0, Out(np.float32, (2,))])
    np.testing.assert_array_equal(out, [2.5, 2.5])


def test_stack_promotes(kernel: KernelRunner) -> None:
    (out,) = kernel.run(
        OP,
        [InList((np.array([True, False]), np.array([3, 4], np.uint8))), 0, Out(np.int32, (2, 2))],
    )
    np.testing.assert_array_equal(out, [[1, 0], [3, 4]])


def test_stack_shape_mismatch_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel,
        OP,
        [InList((np.ones(2, np.float32), np.ones(3, np.float32))), 0, Out(np.float32, (2, 2))],
    )
