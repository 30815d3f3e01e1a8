from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::full_like.out"


@pytest.mark.parametrize("dtype", ALL)
def test_full_like_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((2, 3), dtype=np.float32)
    (out,) = kernel.run(OP, [In(x), 3, None, Out(dtype, (2, 3))])
    np.testing.assert_array_equal(out, np.full((2, 3), 3).astype(dtype))


def test_full_like_float_value_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(1, np.int8)), -1.5, None, Out(np.float64, ())])
    assert out.shape == () and out == -1.5
    (out,) = kernel.run(OP, [In(np.zeros((0,), np.int8)), 1, None, Out(np.int8, (0,))])
    assert out.shape == (0,)
    (out,) = kernel.run(
        OP, [In(np.zeros((2,), np.float16)), float("-inf"), None, Out(np.float16, (2,))]
    )
    np.testing.assert_array_equal(out, [-np.inf, -np.inf])


def test_full_like_wrong_shape_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.zeros((2, 2), np.float32)), 1.0, None, Out(np.float32, (3,))])
