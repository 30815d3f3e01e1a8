from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import (
    REAL,
    In,
    KernelRunner,
    Out,
    assert_fails,
    scalar_type,
)

OP = "aten::cumsum.out"


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_matches_numpy(kernel: KernelRunner, dtype: type, dim: int) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), dim, None, Out(dtype, x.shape)])
    np.testing.assert_array_equal(out, np.cumsum(x, axis=dim, dtype=dtype))


def test_cumsum_bool_dtype_arg_and_overflow(kernel: KernelRunner) -> None:
    b = np.array([True, False, True, True])
    long = scalar_type(np.int64).number
    (out,) = kernel.run(OP, [In(b), 0, long, Out(np.int64, (4,))])
    np.testing.assert_array_equal(out, [1, 1, 2, 3])
    i = np.array([100, 100, 100], np.int8)
    (out,) = kernel.run(OP, [In(i), 0, None, Out(np.int8, (3,))])
    np.testing.assert_array_equal(out, np.array([100, -56, 44], np.int8))
    (out,) = kernel.run(OP, [In(i), 0, long, Out(np.int64, (3,))])
    np.testing.assert_array_equal(out, [100, 200, 300])


def test_cumsum_nan_layout_zero_dim_empty(kernel: KernelRunner) -> None:
    f = np.array([[1.0, np.nan, 2.0], [np.inf, -np.inf, 1.0]], np.float32)
    (out,) = kernel.run(OP, [In(f, dim_order=(1, 0)), 1, None, Out(np.float32, (2, 3))])
    np.testing.assert_array_equal(out, np.cumsum(f, axis=1))
    (out,) = kernel.run(OP, [In(np.array(4.0, np.float64)), 0, None, Out(np.float64, ())])
    assert out == 4.0
    (out,) = kernel.run(OP, [In(np.zeros((0, 2), np.float32)), 1, None, Out(np.float32, (0, 2))])
    assert out.shape == (0, 2)


def test_cumsum_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for args in (
        [In(x), 2, None, Out(np.float32, (2, 3))],
        [In(x), 1, scalar_type(np.float64).number, Out(np.float32, (2, 3))],
        [In(x), 1, None, Out(np.float32, (3, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_cumsum_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(74)
    (x,) = bfloat16_inputs(rng.standard_normal((3, 6)) * 3)
    (got,) = run_bfloat16(kernel, OP, [In(x), 1, None, Out(np.float32, x.shape)])
    assert_bfloat16_close(got, np.cumsum(x, axis=1), atol=5e-2)
    (got,) = run_bfloat16(kernel, OP, [In(x), 0, None, Out(np.float32, x.shape)])
    assert_bfloat16_close(got, np.cumsum(x, axis=0), atol=5e-2)
