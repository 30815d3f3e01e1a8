from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import (
    FLOATING,
    INTEGER,
    In,
    KernelRunner,
    Out,
    assert_fails,
    scalar_type,
)

OP = "aten::mean.out"


@pytest.mark.parametrize("dtype", FLOATING)
def test_mean_over_dims(kernel: KernelRunner, dtype: type) -> None:
    x = np.random.default_rng(1).standard_normal((2, 3, 4)).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((0, 2)), False, None, Out(dtype, (3,))])
    expected = x.astype(np.float64).mean(axis=(0, 2))
    np.testing.assert_allclose(
        out.astype(np.float64), expected, rtol=1e-2 if dtype == np.float16 else 1e-5, atol=1e-6
    )
    (out,) = kernel.run(OP, [In(x), IntList((-2,)), True, None, Out(dtype, (2, 1, 4))])
    expected = x.astype(np.float64).mean(axis=1, keepdims=True)
    np.testing.assert_allclose(
        out.astype(np.float64), expected, rtol=1e-2 if dtype == np.float16 else 1e-5, atol=1e-6
    )


@pytest.mark.parametrize("dtype", [*INTEGER, np.bool_])
def test_mean_of_integers_with_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    float_number = scalar_type(np.float32).number
    (out,) = kernel.run(OP, [In(x), IntList((1,)), False, float_number, Out(np.float32, (3,))])
    np.testing.assert_allclose(out, x.astype(np.float64).mean(axis=1), rtol=1e-6)


def test_mean_all_nan_inf_empty_and_zero_dim(kernel: KernelRunner) -> None:
    x = np.array([[1.0, np.nan], [np.inf, 1.0]], dtype=np.float32)
    (out,) = kernel.run(OP, [In(x), None, False, None, Out(np.float32, ())])
    assert np.isnan(out)
    (out,) = kernel.run(OP, [In(x), IntList((1,)), False, None, Out(np.float32, (2,))])
    np.testing.assert_array_equal(out, np.array([np.nan, np.inf], np.float32))
    e = np.zeros((2, 0), dtype=np.float32)
    (out,) = kernel.run(OP, [In(e), IntList((1,)), False, None, Out(np.float32, (2,))])
    assert np.isnan(out).all()
    (out,) = kernel.run(
        OP, [In(np.array(3.0, np.float64)), IntList(()), False, None, Out(np.float64, ())]
    )
    assert out == 3.0


def test_mean_errors(kernel: KernelRunner) -> None:
    ints = np.ones((2, 3), dtype=np.int32)
    floats = ints.astype(np.float32)
    for args in (
        [In(ints), IntList((1,)), False, None, Out(np.float32, (2,))],
        [In(floats), IntList((1,)), False, None, Out(np.int32, (2,))],
        [In(floats), IntList((3,)), False, None, Out(np.float32, (2,))],
        [In(floats), IntList((1,)), False, None, Out(np.float32, (3,))],
    ):
        assert_fails(kernel, OP, args)


def test_mean_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(71)
    (x,) = bfloat16_inputs(rng.standard_normal((3, 8)) * 3)
    (got,) = run_bfloat16(kernel, OP, [In(x), IntList((1,)), False, None, Out(np.float32, (3,))])
    assert_bfloat16_close(got, x.mean(axis=1), atol=1e-2)
    (got,) = run_bfloat16(kernel, OP, [In(x), IntList((0, 1)), True, None, Out(np.float32, (1, 1))])
    assert_bfloat16_close(got, x.mean(keepdims=True), atol=1e-2)


ALL_OP = "aten::mean.dtype_out"


@pytest.mark.parametrize("dtype", FLOATING)
def test_mean_of_everything(kernel: KernelRunner, dtype: type) -> None:
    x = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(dtype)
    (out,) = kernel.run(ALL_OP, [In(x, (1, 2, 0)), None, Out(dtype, ())])
    assert out.shape == ()
    np.testing.assert_allclose(
        out.astype(np.float64),
        x.astype(np.float64).mean(),
        rtol=1e-2 if dtype == np.float16 else 1e-5,
        atol=1e-6,
    )


@pytest.mark.parametrize("dtype", [*INTEGER, np.bool_, np.float32])
def test_mean_of_everything_with_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    double = scalar_type(np.float64).number
    (out,) = kernel.run(ALL_OP, [In(x), double, Out(np.float64, ())])
    np.testing.assert_allclose(out, x.astype(np.float64).mean(), rtol=1e-12)


def test_mean_of_everything_empty_and_errors(kernel: KernelRunner) -> None:
    (out,) = kernel.run(ALL_OP, [In(np.zeros((0, 3), np.float32)), None, Out(np.float32, ())])
    assert np.isnan(out)
    i = np.array([1, 2], dtype=np.int32)
    f = np.array([1.0, 2.0], dtype=np.float32)
    double = scalar_type(np.float64).number
    assert_fails(kernel, ALL_OP, [In(i), None, Out(np.float32, ())], "floating point")
    assert_fails(kernel, ALL_OP, [In(f), double, Out(np.float32, ())], "dtype asked for")
    assert_fails(kernel, ALL_OP, [In(f), None, Out(np.int32, ())])
    assert_fails(kernel, ALL_OP, [In(f), None, Out(np.float32, (1,))])
