from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    FLOATING,
    INTEGER,
    REAL,
    In,
    Out,
    assert_fails,
    assert_same,
    int_reference,
    nonzero,
    quiet,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelRunner

OP = "aten::fmod.Tensor_out"
SCALAR_OP = "aten::fmod.Scalar_out"


def reference(x: np.ndarray, y: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if np.issubdtype(dtype, np.integer):
        return int_reference(lambda p, q: (abs(p) % abs(q)) * (1 if p >= 0 else -1), x, y, dtype)
    return quiet(lambda: np.fmod(x.astype(dtype), y.astype(dtype)))


@pytest.mark.parametrize("dtype", REAL)
def test_fmod_takes_dividend_sign(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    if np.issubdtype(dtype, np.integer):
        y = nonzero(y)
    out = kernel.run(OP, [In(x), In(y), Out(dtype, (3, 4))])[0]
    assert_same(out, reference(x, y, np.dtype(dtype)))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("other", [3, -2.5])
def test_fmod_scalar(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 5), 3)
    common = scalar_result_type(dtype, other)
    out = kernel.run(SCALAR_OP, [In(x), other, Out(common, x.shape)])[0]
    assert_same(out, reference(x, np.array(other).astype(common), common))


@pytest.mark.parametrize("dtype", FLOATING)
def test_fmod_float_edges(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([5.0, -5.0, 1.0, np.inf, np.nan, -1.0, 0.0], dtype=dtype)
    y = np.array([0.0, 3.0, -np.inf, 2.0, 1.0, np.inf, -2.0], dtype=dtype)
    assert_same(
        kernel.run(OP, [In(x), In(y), Out(dtype, x.shape)])[0], reference(x, y, np.dtype(dtype))
    )


@pytest.mark.parametrize("dtype", INTEGER)
def test_fmod_mixed_and_zero_dim(kernel: KernelRunner, dtype: type) -> None:
    x = (
        np.array([-7, 7, 0], dtype=dtype)
        if np.iinfo(dtype).min < 0
        else np.array([9, 7, 0], dtype=dtype)
    )
    y = np.array(4, dtype=np.int64)
    assert_same(
        kernel.run(OP, [In(x), In(y), Out(dtype, (3,))])[0],
        reference(x, np.array(4, dtype), np.dtype(dtype)),
    )
    f = np.array(2.5, dtype=np.float32)
    assert_same(
        kernel.run(OP, [In(x), In(f), Out(np.float32, (3,))])[0],
        reference(x, f, np.dtype(np.float32)),
    )
    e = np.zeros((0,), dtype=dtype)
    assert kernel.run(SCALAR_OP, [In(e), 0, Out(dtype, (0,))])[0].shape == (0,)


def test_fmod_errors(kernel: KernelRunner) -> None:
    i = np.array([4, 5], dtype=np.int64)
    assert_fails(
        kernel, OP, [In(i), In(np.array([1, 0], np.int64)), Out(np.int64, (2,))], "division by zero"
    )
    assert_fails(kernel, SCALAR_OP, [In(i), 0, Out(np.int64, (2,))], "division by zero")
    b = np.array([True])
    assert_fails(kernel, OP, [In(b), In(b), Out(np.bool_, (1,))], "bool")
    assert_fails(kernel, SCALAR_OP, [In(i), 1.5, Out(np.int64, (2,))], "cast")


def test_fmod_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[5.5, -5.5, 7.0], [-7.0, 1.0, 3.0]]), np.array([2.0, 2.0, -3.0])
    )
    (got,) = run_bfloat16(kernel, OP, [In(x), In(y), Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, np.fmod(x, y))
    (got,) = run_bfloat16(kernel, SCALAR_OP, [In(x), 3, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, np.fmod(x, np.float32(3)))
