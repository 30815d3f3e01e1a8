from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::unsqueeze_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_unsqueeze_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 1, Out(dtype, (2, 1, 3))])
    np.testing.assert_array_equal(out, x[:, None, :])


@pytest.mark.parametrize("dim", [0, 2, -1, -3])
def test_unsqueeze_positions(kernel: KernelRunner, dim: int) -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected = np.expand_dims(x, dim)
    (out,) = kernel.run(OP, [In(x), dim, Out(np.float32, expected.shape)])
    np.testing.assert_array_equal(out, expected)


def test_unsqueeze_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(3, dtype=np.int64)), 0, Out(np.int64, (1,))])
    np.testing.assert_array_equal(out, [3])
    (out,) = kernel.run(OP, [In(np.zeros((0, 2), np.float32)), -1, Out(np.float32, (0, 2, 1))])
    assert out.shape == (0, 2, 1)


def test_unsqueeze_bad_dim_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.ones((2,), np.float32)), 3, Out(np.float32, (2, 1))])
