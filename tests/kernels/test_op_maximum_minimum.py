from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    ALL,
    FLOATING,
    In,
    Out,
    assert_fails,
    assert_same,
    result_type,
    sample,
)
from tests.kernels.harness import KernelRunner

OPS = {"aten::maximum.out": np.maximum, "aten::minimum.out": np.minimum}


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ALL)
def test_extremum_broadcasts(kernel: KernelRunner, op: str, dtype: type) -> None:
    x, y = sample(dtype, (2, 3), 1), sample(dtype, (2, 1), 2)
    out = kernel.run(op, [In(x), In(y), Out(dtype, (2, 3))])[0]
    assert_same(out, OPS[op](x, y))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", FLOATING)
def test_extremum_nan_propagates(kernel: KernelRunner, op: str, dtype: type) -> None:
    x = np.array([np.nan, 1.0, -np.inf, np.nan, 2.0], dtype=dtype)
    y = np.array([1.0, np.nan, 3.0, np.nan, np.inf], dtype=dtype)
    assert_same(kernel.run(op, [In(x), In(y), Out(dtype, x.shape)])[0], OPS[op](x, y))


@pytest.mark.parametrize("op", OPS)
def test_extremum_promotion_zero_dim_empty(kernel: KernelRunner, op: str) -> None:
    x = np.array([-3, 200], dtype=np.int16)
    y = np.array([1.5], dtype=np.float16)
    assert result_type(x, y) == np.float16
    assert_same(
        kernel.run(op, [In(x), In(y), Out(np.float16, (2,))])[0], OPS[op](x.astype(np.float16), y)
    )
    u, i = np.array([250], np.uint8), np.array([-1], np.int8)
    assert_same(
        kernel.run(op, [In(u), In(i), Out(np.int16, (1,))])[0], OPS[op](u.astype(np.int16), i)
    )
    z = np.array(5, dtype=np.int64)
    assert_same(
        kernel.run(op, [In(z), In(np.array(9, np.int64)), Out(np.int64, ())])[0], OPS[op](z, 9)
    )
    e = np.zeros((3, 0), np.float32)
    assert kernel.run(op, [In(e), In(np.zeros((1,), np.float32)), Out(np.float32, (3, 0))])[
        0
    ].shape == (3, 0)


@pytest.mark.parametrize("op", OPS)
def test_extremum_errors(kernel: KernelRunner, op: str) -> None:
    f = np.array([1.0], np.float32)
    assert_fails(kernel, op, [In(f), In(f), Out(np.int32, (1,))], "cast")
    assert_fails(
        kernel,
        op,
        [In(np.ones((2,), np.float32)), In(np.ones((3,), np.float32)), Out(np.float32, (2,))],
    )


@pytest.mark.parametrize("op", OPS)
def test_extremum_bfloat16(kernel: KernelRunner, op: str) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [np.nan, 7.0, -0.5]]), np.array([0.25, 3.0, np.nan])
    )
    (got,) = run_bfloat16(kernel, op, [In(x), In(y), Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, OPS[op](x, y))
