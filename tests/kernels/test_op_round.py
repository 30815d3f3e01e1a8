from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import REAL, check_bfloat16, run_unary, sample

OP = "aten::round.out"
DECIMALS = "aten::round.decimals_out"


@pytest.mark.parametrize("dtype", REAL)
def test_round_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype), np.round(x).astype(dtype))


def test_round_halves_to_even_and_edges(kernel: KernelRunner) -> None:
    x = np.array(
        [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, np.nan, np.inf, -np.inf, 1e20, 0.49999997],
        dtype=np.float32,
    )
    out = run_unary(kernel, OP, x, np.float32)
    np.testing.assert_array_equal(out, np.round(x))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(np.round(x)))


def test_round_zero_dim_empty_and_wider_out(kernel: KernelRunner) -> None:
    np.testing.assert_array_equal(
        run_unary(kernel, OP, np.array(3.5, dtype=np.float16), np.float16), 4.0
    )
    assert run_unary(kernel, OP, np.zeros((0,), dtype=np.int32), np.int32).shape == (0,)
    x = np.array([[0.5, 1.5], [2.5, 3.5]], dtype=np.float32)
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.float64, dim_order=(1, 0)), np.round(x)
    )


@pytest.mark.parametrize("dtype", FLOATING)
def test_round_decimals(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([[1.2345, -2.5, 1234.5], [0.125, 15.0, -25.0]], dtype=dtype)
    for decimals in (2, 0, -1):
        out = run_unary(kernel, DECIMALS, x, dtype, decimals)
        scale = 10.0 ** abs(decimals)
        wide = x.astype(np.float64 if dtype is np.float64 else np.float32)
        expected = (
            np.round(wide / scale) * scale if decimals < 0 else np.round(wide * scale) / scale
        )
        np.testing.assert_allclose(
            out, expected.astype(dtype), rtol=1e-3 if dtype is np.float16 else 1e-6
        )


def test_round_decimals_of_integers(kernel: KernelRunner) -> None:
    x = np.array([-3, 7], dtype=np.int64)
    np.testing.assert_array_equal(run_unary(kernel, DECIMALS, x, np.int64, 0), x)
    assert_fails(kernel, DECIMALS, [In(x), 1, Out(np.int64, x.shape)])


def test_round_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [In(np.array([True])), Out(np.bool_, (1,))],
        [In(np.array([1.5], dtype=np.float64)), Out(np.int8, (1,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_round_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, np.round)
