from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    ALL,
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

OP = "aten::mul.out"
SCALAR_OP = "aten::mul.Scalar_out"


def reference(x: np.ndarray, y: np.ndarray, common: np.dtype) -> np.ndarray:
    if common == np.bool_:
        return x.astype(bool) & y.astype(bool)
    return quiet(lambda: x.astype(common) * y.astype(common))


@pytest.mark.parametrize("dtype", ALL)
def test_mul_broadcasts_and_wraps(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (2, 1, 3), 1), sample(dtype, (4, 1), 2)
    out = kernel.run(OP, [In(x), In(y), Out(dtype, (2, 4, 3))])[0]
    assert_same(out, reference(x, y, np.dtype(dtype)))


@pytest.mark.parametrize(
    ("da", "db"),
    [(np.uint8, np.int8), (np.bool_, np.float16), (np.int64, np.float32), (np.float16, np.float64)],
)
def test_mul_promotes_mixed_dtypes(kernel: KernelRunner, da: type, db: type) -> None:
    x, y = sample(da, (2, 3), 3), sample(db, (3,), 4)
    common = result_type(x, y)
    out = kernel.run(OP, [In(x), In(y), Out(common, (2, 3))])[0]
    assert_same(out, reference(x, y, common))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("other", [-3, 0.5, True])
def test_mul_scalar(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (3, 2), 5)
    common = scalar_result_type(dtype, other)
    out = kernel.run(SCALAR_OP, [In(x), other, Out(common, x.shape)])[0]
    assert_same(out, reference(x, np.array(other), common))


def test_mul_scalar_edges(kernel: KernelRunner) -> None:
    x = np.array([np.inf, np.nan, -0.0, 1.0], dtype=np.float32)
    assert_same(
        kernel.run(SCALAR_OP, [In(x), 0.0, Out(np.float32, (4,))])[0],
        np.array([np.nan, np.nan, -0.0, 0.0], dtype=np.float32),
    )
    z = np.array(7, dtype=np.int16)
    assert_same(kernel.run(SCALAR_OP, [In(z), 3, Out(np.int16, ())])[0], np.array(21, np.int16))
    e = np.zeros((2, 0), dtype=np.int32)
    assert kernel.run(OP, [In(e), In(np.ones((1,), np.int32)), Out(np.int32, (2, 0))])[0].shape == (
        2,
        0,
    )
    # Into a wider out dtype.
    i8 = np.array([100], dtype=np.int8)
    assert_same(
        kernel.run(SCALAR_OP, [In(i8), 3, Out(np.int64, (1,))])[0], np.array([44], np.int64)
    )


def test_mul_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_fails(
        kernel, OP, [In(x), In(np.ones((4,), np.float32)), Out(np.float32, (2, 3))], "broadcast"
    )
    assert_fails(kernel, SCALAR_OP, [In(x), 2, Out(np.int32, (2, 3))], "cast")


def test_mul_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [100.0, np.inf, 8.0]]), np.array([0.25, 3.0, -7.5])
    )
    (got,) = run_bfloat16(kernel, OP, [In(x), In(y), Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x * y)
    (got,) = run_bfloat16(kernel, SCALAR_OP, [In(x), 3, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x * 3)
