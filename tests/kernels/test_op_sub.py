from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    REAL,
    In,
    Out,
    assert_fails,
    assert_same,
    quiet,
    result_type,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelRunner

OP = "aten::sub.out"
SCALAR_OP = "aten::sub.Scalar_out"


@pytest.mark.parametrize("dtype", REAL)
def test_sub_broadcasts_and_wraps(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (2, 3), 1), sample(dtype, (3,), 2)
    out = kernel.run(OP, [In(x), In(y), 1, Out(dtype, (2, 3))])[0]
    assert_same(out, quiet(lambda: x - y))


@pytest.mark.parametrize("dtype", REAL)
def test_sub_alpha(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (4,), 3), sample(dtype, (4,), 4)
    alpha = 2.5 if np.issubdtype(dtype, np.floating) else 3
    out = kernel.run(OP, [In(x), In(y), alpha, Out(dtype, (4,))])[0]
    expected = quiet(lambda: x - (np.array(alpha).astype(dtype) * y).astype(dtype))
    assert_same(out, expected.astype(dtype))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("other", [5, -1.5])
def test_sub_scalar(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 3), 5)
    common = scalar_result_type(dtype, other)
    out = kernel.run(SCALAR_OP, [In(x), other, 1, Out(common, x.shape)])[0]
    assert_same(out, quiet(lambda: x.astype(common) - np.array(other).astype(common)))


def test_sub_mixed_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array([1, 2, 3], dtype=np.uint8)
    y = np.array(2.5, dtype=np.float64)  # a 0-dim float decides: float64
    assert result_type(x, y) == np.float64
    assert_same(kernel.run(OP, [In(x), In(y), 1, Out(np.float64, (3,))])[0], x - 2.5)
    e = np.zeros((0,), dtype=np.float16)
    assert kernel.run(SCALAR_OP, [In(e), 1, 1, Out(np.float16, (0,))])[0].shape == (0,)
    z = np.array(-128, dtype=np.int8)
    assert_same(kernel.run(SCALAR_OP, [In(z), 1, 1, Out(np.int8, ())])[0], np.array(127, np.int8))
    f = np.array([np.inf, np.nan], dtype=np.float64)
    assert_same(
        kernel.run(SCALAR_OP, [In(f), np.inf, 1, Out(np.float64, (2,))])[0],
        np.array([np.nan, np.nan]),
    )


def test_sub_errors(kernel: KernelRunner) -> None:
    b = np.array([True, False])
    f = np.array([1.0, 2.0], dtype=np.float32)
    assert_fails(kernel, OP, [In(b), In(b), 1, Out(np.bool_, (2,))], "bool")
    assert_fails(kernel, OP, [In(f), In(b), 1, Out(np.float32, (2,))], "bool")
    assert_fails(kernel, SCALAR_OP, [In(f), True, 1, Out(np.float32, (2,))], "bool")
    assert_fails(
        kernel, SCALAR_OP, [In(np.array([1], np.int32)), 1, 0.5, Out(np.int32, (1,))], "alpha"
    )
    assert_fails(
        kernel, SCALAR_OP, [In(np.array([1], np.int32)), 0.5, 1, Out(np.int32, (1,))], "cast"
    )


def test_sub_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [100.0, np.inf, 8.0]]), np.array([0.25, 3.0, -7.5])
    )
    (got,) = run_bfloat16(kernel, OP, [In(x), In(y), 2, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x - 2 * y)
    (got,) = run_bfloat16(kernel, SCALAR_OP, [In(x), -1.5, 1, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x + np.float32(1.5))
