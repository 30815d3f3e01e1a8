from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import REAL, check_bfloat16, run_unary, sample

# One module for ceil and floor (the same kernel shape, rounding the other way).
ROUNDINGS = {"ceil": np.ceil, "floor": np.floor}


@pytest.fixture(params=sorted(ROUNDINGS))
def rounding(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", REAL)
def test_rounding_matches_numpy(rounding: str, kernel: KernelRunner, dtype: type) -> None:
    op, reference = f"aten::{rounding}.out", ROUNDINGS[rounding]
    x = sample(dtype, (3, 4))
    # Integers come back unchanged, in their own dtype.
    np.testing.assert_array_equal(run_unary(kernel, op, x, dtype), reference(x).astype(dtype))


def test_rounding_float_edges(rounding: str, kernel: KernelRunner) -> None:
    op, reference = f"aten::{rounding}.out", ROUNDINGS[rounding]
    x = np.array([np.nan, -np.inf, np.inf, -0.5, 0.5, -0.0, 1e20, 2.5, -2.5], dtype=np.float32)
    out = run_unary(kernel, op, x, np.float32)
    np.testing.assert_array_equal(out, reference(x))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(reference(x)))


def test_rounding_zero_dim_empty_strided_and_wider_out(rounding: str, kernel: KernelRunner) -> None:
    op, reference = f"aten::{rounding}.out", ROUNDINGS[rounding]
    np.testing.assert_array_equal(
        run_unary(kernel, op, np.array(-1.5, dtype=np.float64), np.float64), reference(-1.5)
    )
    assert run_unary(kernel, op, np.zeros((0, 2), dtype=np.float32), np.float32).shape == (0, 2)
    x = (np.arange(24, dtype=np.float16).reshape(2, 3, 4) - 11.5) / 3
    out = run_unary(kernel, op, x, np.float32, dim_order=(0, 2, 1))
    np.testing.assert_array_equal(out, reference(x).astype(np.float32))
    y = np.array([249, 0, 200], dtype=np.uint8)
    np.testing.assert_array_equal(run_unary(kernel, op, y, np.int64), y.astype(np.int64))


def test_rounding_errors_are_one_line(rounding: str, kernel: KernelRunner) -> None:
    op = f"aten::{rounding}.out"
    cases = [
        [In(np.array([True])), Out(np.bool_, (1,))],
        [In(np.array([1.5], dtype=np.float32)), Out(np.int64, (1,))],
    ]
    for args in cases:
        assert_fails(kernel, op, args)


def test_rounding_bfloat16(rounding: str, kernel: KernelRunner) -> None:
    op, reference = f"aten::{rounding}.out", ROUNDINGS[rounding]
    check_bfloat16(kernel, op, reference)
