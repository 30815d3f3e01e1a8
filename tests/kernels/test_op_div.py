from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    ALL,
    FLOATING,
    INTEGER,
    REAL,
    In,
    Out,
    assert_fails,
    assert_same,
    floor_div,
    int_reference,
    nonzero,
    quiet,
    result_type,
    sample,
    scalar_result_type,
    trunc_div,
)
from tests.kernels.harness import KernelRunner

OP = "aten::div.out"
MODE_OP = "aten::div.out_mode"
SCALAR_OP = "aten::div.Scalar_out"
SCALAR_MODE_OP = "aten::div.Scalar_mode_out"


def true_dtype(common: np.dtype) -> np.dtype:
    return common if np.issubdtype(common, np.floating) else np.dtype(np.float32)


@pytest.mark.parametrize("dtype", ALL)
def test_div_true_division(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (2, 3), 1), sample(dtype, (3,), 2)
    f = true_dtype(np.dtype(dtype))
    out = kernel.run(OP, [In(x), In(y), Out(f, (2, 3))])[0]
    assert_same(out, quiet(lambda: x.astype(f) / y.astype(f)))
    again = kernel.run(MODE_OP, [In(x), In(y), None, Out(f, (2, 3))])[0]
    assert_same(again, out)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_div_rounding_modes(kernel: KernelRunner, dtype: type, mode: str) -> None:
    x, y = sample(dtype, (3, 4), 3), sample(dtype, (4,), 4)
    if np.issubdtype(dtype, np.integer):
        y = nonzero(y)
        expected = int_reference(trunc_div if mode == "trunc" else floor_div, x, y, dtype)
    elif mode == "trunc":
        expected = quiet(lambda: np.trunc(x / y))
    else:
        expected = quiet(lambda: np.floor_divide(x, y))
    out = kernel.run(MODE_OP, [In(x), In(y), mode, Out(dtype, (3, 4))])[0]
    assert_same(out, expected)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("other", [2, -0.5])
def test_div_scalar(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 3), 5)
    f = true_dtype(scalar_result_type(dtype, other))
    out = kernel.run(SCALAR_OP, [In(x), other, Out(f, x.shape)])[0]
    assert_same(out, quiet(lambda: x.astype(f) / np.array(other).astype(f)))


@pytest.mark.parametrize("dtype", INTEGER)
def test_div_scalar_modes_integer(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (2, 4), 6)
    for mode, fn in (("trunc", trunc_div), ("floor", floor_div)):
        out = kernel.run(SCALAR_MODE_OP, [In(x), -3, mode, Out(dtype, x.shape)])[0]
        # -3 becomes the dtype first (253 for uint8).
        assert_same(out, int_reference(fn, x, np.array(-3).astype(dtype), dtype))
    # A float scalar makes the result float32.
    out = kernel.run(SCALAR_MODE_OP, [In(x), 2.0, "floor", Out(np.float32, x.shape)])[0]
    assert_same(out, np.floor_divide(x.astype(np.float32), np.float32(2.0)))


@pytest.mark.parametrize("dtype", FLOATING)
def test_div_float_edges(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([1.0, -1.0, 0.0, np.inf, np.nan, -7.0, 7.0, -0.0], dtype=dtype)
    y = np.array([0.0, 0.0, 0.0, 2.0, 1.0, 2.0, -2.0, 3.0], dtype=dtype)
    assert_same(kernel.run(OP, [In(x), In(y), Out(dtype, x.shape)])[0], quiet(lambda: x / y))
    assert_same(
        kernel.run(MODE_OP, [In(x), In(y), "floor", Out(dtype, x.shape)])[0],
        quiet(lambda: np.floor_divide(x, y)),
    )
    assert_same(
        kernel.run(MODE_OP, [In(x), In(y), "trunc", Out(dtype, x.shape)])[0],
        quiet(lambda: np.trunc(x / y)),
    )
    assert_same(
        kernel.run(SCALAR_MODE_OP, [In(x), 0.0, None, Out(dtype, x.shape)])[0],
        quiet(lambda: x / dtype(0.0)),
    )


def test_div_integer_overflow_and_zero_dim(kernel: KernelRunner) -> None:
    x = np.array([-(2**31), 7], dtype=np.int32)
    y = np.array(-1, dtype=np.int32)
    for mode in ("trunc", "floor"):
        out = kernel.run(MODE_OP, [In(x), In(y), mode, Out(np.int32, (2,))])[0]
        assert_same(out, np.array([-(2**31), -7], dtype=np.int32))
    z = np.array(7, dtype=np.int64)
    assert_same(
        kernel.run(SCALAR_OP, [In(z), 2, Out(np.float32, ())])[0], np.array(3.5, np.float32)
    )
    e = np.zeros((0, 3), dtype=np.int32)
    assert kernel.run(MODE_OP, [In(e), In(np.zeros(3, np.int32)), "trunc", Out(np.int32, (0, 3))])[
        0
    ].shape == (0, 3)
    # int8 with a 0-dim int64: stays int8.
    a = np.array([-7, 7], dtype=np.int8)
    b = np.array(2, dtype=np.int64)
    assert result_type(a, b) == np.int8
    assert_same(
        kernel.run(MODE_OP, [In(a), In(b), "floor", Out(np.int8, (2,))])[0],
        np.array([-4, 3], np.int8),
    )


def test_div_errors(kernel: KernelRunner) -> None:
    i = np.array([4, 5], dtype=np.int32)
    zero = np.array([1, 0], dtype=np.int32)
    assert_fails(
        kernel, MODE_OP, [In(i), In(zero), "trunc", Out(np.int32, (2,))], "division by zero"
    )
    assert_fails(
        kernel, MODE_OP, [In(i), In(zero), "floor", Out(np.int32, (2,))], "division by zero"
    )
    assert_fails(
        kernel, SCALAR_MODE_OP, [In(i), 0, "floor", Out(np.int32, (2,))], "division by zero"
    )
    u8 = np.array([4], dtype=np.uint8)
    assert_fails(
        kernel, SCALAR_MODE_OP, [In(u8), 256, "trunc", Out(np.uint8, (1,))], "division by zero"
    )
    assert_fails(kernel, OP, [In(i), In(i), Out(np.int32, (2,))], "cast")
    assert_fails(kernel, MODE_OP, [In(i), In(i), "round", Out(np.int32, (2,))], "rounding_mode")
    b = np.array([True])
    assert_fails(kernel, MODE_OP, [In(b), In(b), "trunc", Out(np.bool_, (1,))], "bool")
    # Integer true division by zero is fine: inf and nan.
    out = kernel.run(
        OP, [In(np.array([1, 0], np.int32)), In(np.zeros(2, np.int32)), Out(np.float32, (2,))]
    )[0]
    assert_same(out, np.array([np.inf, np.nan], np.float32))


def test_div_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [100.0, 1.0, 0.0]]), np.array([0.25, 0.0, -7.5])
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        (got,) = run_bfloat16(kernel, OP, [In(x), In(y), Out(np.float32, (2, 3))])
        assert_bfloat16_close(got, x / y)
        (got,) = run_bfloat16(kernel, MODE_OP, [In(x), In(y), "floor", Out(np.float32, (2, 3))])
        assert_bfloat16_close(got, np.floor(x / y))
        (got,) = run_bfloat16(kernel, SCALAR_OP, [In(x), 4, Out(np.float32, (2, 3))])
        assert_bfloat16_close(got, x / 4)
