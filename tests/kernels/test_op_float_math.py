"""The floating point unary math kernels: inverse trigonometric and hyperbolic functions,
tan, expm1 and the other logarithms (one kernel shape, op_sin.cpp's, per function)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.kernels.harness import KernelRunner
from tests.kernels.unary_cases import (
    ALL,
    check_bfloat16,
    check_float_op,
    check_float_op_errors,
    check_float_op_shapes,
    run_unary,
)

REFERENCES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "acos": np.arccos,
    "acosh": np.arccosh,
    "asin": np.arcsin,
    "asinh": np.arcsinh,
    "atan": np.arctan,
    "atanh": np.arctanh,
    "cosh": np.cosh,
    "sinh": np.sinh,
    "tan": np.tan,
    "expm1": np.expm1,
    "log10": np.log10,
    "log1p": np.log1p,
    "log2": np.log2,
}


@pytest.fixture(params=sorted(REFERENCES))
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", ALL)
def test_matches_numpy(name: str, kernel: KernelRunner, dtype: type) -> None:
    # Integers and bool give Float; NaN, infinities and values outside a domain included.
    check_float_op(kernel, f"aten::{name}.out", REFERENCES[name], dtype)


def test_zero_dim_empty_strided_and_double_out(name: str, kernel: KernelRunner) -> None:
    check_float_op_shapes(kernel, f"aten::{name}.out", REFERENCES[name])


def test_errors_are_one_line(name: str, kernel: KernelRunner) -> None:
    check_float_op_errors(kernel, f"aten::{name}.out")


def test_bfloat16(name: str, kernel: KernelRunner) -> None:
    check_bfloat16(kernel, f"aten::{name}.out", REFERENCES[name])


def test_accurate_near_zero(kernel: KernelRunner) -> None:
    """expm1 and log1p keep the digits exp(x) - 1 and log(1 + x) lose."""
    x = np.array([1e-10, -1e-12, 3e-9], dtype=np.float64)
    # exp(x) - 1 in float64 is off by ~1e-7 relative here; the kernels must not be.
    for name in ("expm1", "log1p"):
        out = run_unary(kernel, f"aten::{name}.out", x, np.float64)
        np.testing.assert_allclose(out, REFERENCES[name](x), rtol=1e-14)
