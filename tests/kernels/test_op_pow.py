from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    FLOATING,
    INTEGER,
    In,
    Out,
    assert_fails,
    assert_same,
    int_reference,
    quiet,
    sample,
)
from tests.kernels.harness import KernelRunner

OP = "aten::pow.Tensor_Tensor_out"
SCALAR_OP = "aten::pow.Tensor_Scalar_out"


def int_pow(p: int, q: int) -> int:
    if q < 0:
        return 1 if p == 1 else ((-1) ** (-q) if p == -1 else 0)
    return p**q


@pytest.mark.parametrize("dtype", INTEGER)
def test_pow_integers_wrap(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (2, 4), 1)
    y = np.array([0, 1, 2, 3], dtype=dtype)
    if np.iinfo(dtype).min < 0:
        y = np.array([0, -1, 5, -2], dtype=dtype)
    out = kernel.run(OP, [In(x), In(y), Out(dtype, (2, 4))])[0]
    assert_same(out, int_reference(int_pow, x, y, dtype))


def test_pow_negative_integer_exponents(kernel: KernelRunner) -> None:
    x = np.array([1, -1, -1, 2, 0, -3], dtype=np.int32)
    y = np.array([-5, -3, -4, -1, 3, 3], dtype=np.int32)
    assert_same(
        kernel.run(OP, [In(x), In(y), Out(np.int32, (6,))])[0],
        np.array([1, -1, 1, 0, 0, -27], np.int32),
    )


@pytest.mark.parametrize("dtype", FLOATING)
def test_pow_floats(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([2.0, -2.0, 0.0, np.nan, 1.0, np.inf, -0.5, 4.0], dtype=dtype)
    y = np.array([0.5, 3.0, -1.0, 0.0, np.nan, -1.0, 2.0, 0.5], dtype=dtype)
    out = kernel.run(OP, [In(x), In(y), Out(dtype, x.shape)])[0]
    np.testing.assert_allclose(
        out, quiet(lambda: np.power(x, y)), rtol=1e-3 if dtype is np.float16 else 1e-6
    )
    assert out.dtype == dtype


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("exponent", [2, 3, -2, 0.5, -0.5, -1, 0, 1, 1.5])
def test_pow_scalar_floats(kernel: KernelRunner, dtype: type, exponent: object) -> None:
    x = np.array([2.0, 0.25, 3.0, 9.0, np.nan, 1.5], dtype=dtype)
    out = kernel.run(SCALAR_OP, [In(x), exponent, Out(dtype, x.shape)])[0]
    expected = quiet(lambda: np.power(x, np.array(exponent).astype(dtype)))
    np.testing.assert_allclose(out, expected, rtol=1e-3 if dtype is np.float16 else 1e-6)


def test_pow_scalar_special_cases_follow_torch(kernel: KernelRunner) -> None:
    # torch takes sqrt for ** 0.5 on float tensors: sqrt(-inf) is nan, not inf.
    x = np.array([-np.inf, 4.0], dtype=np.float32)
    assert_same(
        kernel.run(SCALAR_OP, [In(x), 0.5, Out(np.float32, (2,))])[0],
        np.array([np.nan, 2.0], np.float32),
    )
    # ** 0 is 1 even for nan.
    n = np.array([np.nan], dtype=np.float64)
    assert_same(kernel.run(SCALAR_OP, [In(n), 0, Out(np.float64, (1,))])[0], np.array([1.0]))


def test_pow_scalar_promotion(kernel: KernelRunner) -> None:
    i = np.array([2, 3], dtype=np.int16)
    assert_same(
        kernel.run(SCALAR_OP, [In(i), 2, Out(np.int16, (2,))])[0], np.array([4, 9], np.int16)
    )
    assert_same(
        kernel.run(SCALAR_OP, [In(i), 0.5, Out(np.float32, (2,))])[0], np.sqrt(i.astype(np.float32))
    )
    b = np.array([True, False])
    assert_same(
        kernel.run(SCALAR_OP, [In(b), 2, Out(np.int64, (2,))])[0], np.array([1, 0], np.int64)
    )
    assert_same(
        kernel.run(SCALAR_OP, [In(b), False, Out(np.bool_, (2,))])[0], np.array([True, True])
    )
    u = np.array([2], dtype=np.uint8)
    assert_same(kernel.run(SCALAR_OP, [In(u), 9, Out(np.uint8, (1,))])[0], np.array([0], np.uint8))
    z = np.array(3, dtype=np.int64)
    assert_same(
        kernel.run(SCALAR_OP, [In(z), 40, Out(np.int64, ())])[0],
        int_reference(int_pow, z, np.array(40), np.int64),
    )
    e = np.zeros((0, 2), np.float32)
    assert kernel.run(OP, [In(e), In(np.ones(2, np.float32)), Out(np.float32, (0, 2))])[
        0
    ].shape == (0, 2)
    # Mixed tensors: int32 ** float16 is float16.
    f = np.array([0.5, 2.0], dtype=np.float16)
    assert_same(
        kernel.run(OP, [In(i.astype(np.int32)), In(f), Out(np.float16, (2,))])[0],
        np.power(np.array([2, 3], np.float16), f),
    )


def test_pow_errors(kernel: KernelRunner) -> None:
    i = np.array([2, 3], dtype=np.int32)
    assert_fails(kernel, SCALAR_OP, [In(i), -1, Out(np.int32, (2,))], "negative")
    b = np.array([True])
    assert_fails(kernel, OP, [In(b), In(b), Out(np.bool_, (1,))], "bool")
    assert_fails(kernel, OP, [In(i), In(i), Out(np.int32, (3,))], "shape")


def test_pow_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [10.0, 0.0, 4.0]]), np.array([2.0, 3.0, 0.5])
    )
    (got,) = run_bfloat16(kernel, OP, [In(x), In(y), Out(np.float32, (2, 3))])
    with np.errstate(invalid="ignore"):
        assert_bfloat16_close(got, np.power(x, y))
    (got,) = run_bfloat16(kernel, SCALAR_OP, [In(x), 2, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x * x)


BASE_OP = "aten::pow.Scalar_out"


@pytest.mark.parametrize("dtype", INTEGER)
def test_pow_scalar_base_integers(kernel: KernelRunner, dtype: type) -> None:
    # An int base keeps the exponent's dtype; negative exponents follow the tensor rule.
    y = np.array([0, 1, 2, 7], dtype=dtype)
    if np.iinfo(dtype).min < 0:
        y = np.array([0, -1, 5, -2], dtype=dtype)
    for base in (2, -1, 1, 3):
        out = kernel.run(BASE_OP, [base, In(y), Out(dtype, y.shape)])[0]
        assert_same(out, int_reference(int_pow, np.array(base), y, dtype))


@pytest.mark.parametrize("dtype", FLOATING)
def test_pow_scalar_base_floats(kernel: KernelRunner, dtype: type) -> None:
    y = np.array([0.0, -1.0, 0.5, 2.0, -0.0, np.inf, -np.inf, np.nan], dtype=dtype)
    for base in (2.5, -2.0, 0.0, 1.0):
        out = kernel.run(BASE_OP, [base, In(y), Out(dtype, y.shape)])[0]
        expected = quiet(lambda b=base: np.power(np.array(b, dtype=dtype), y))
        np.testing.assert_allclose(out, expected, rtol=1e-3 if dtype is np.float16 else 1e-6)


def test_pow_scalar_base_promotion_and_shapes(kernel: KernelRunner) -> None:
    # A float base with an integer exponent gives Float; a bool exponent an int base's Long.
    y = np.array([[0, 1], [2, 3]], dtype=np.int32)
    out = kernel.run(BASE_OP, [1.5, In(y, (1, 0)), Out(np.float32, (2, 2))])[0]
    np.testing.assert_allclose(out, np.float32(1.5) ** y.astype(np.float32), rtol=1e-6)
    b = np.array([True, False])
    assert_same(kernel.run(BASE_OP, [3, In(b), Out(np.int64, (2,))])[0], np.array([3, 1]))
    e = np.zeros((0,), dtype=np.float32)
    assert kernel.run(BASE_OP, [2.0, In(e), Out(np.float32, (0,))])[0].shape == (0,)


def test_pow_scalar_base_errors(kernel: KernelRunner) -> None:
    f = np.array([1.0, 2.0], dtype=np.float32)
    b = np.array([True, False])
    assert_fails(kernel, BASE_OP, [2.0, In(f), Out(np.int32, (2,))])
    assert_fails(kernel, BASE_OP, [True, In(b), Out(np.bool_, (2,))], "bool")
    assert_fails(kernel, BASE_OP, [2.0, In(f), Out(np.float32, (3,))])
