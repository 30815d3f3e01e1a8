from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import REAL, check_bfloat16, run_unary, sample

OP = "aten::abs.out"


@pytest.mark.parametrize("dtype", REAL)
def test_abs_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    # numpy's abs also wraps the most negative integer around to itself.
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype), np.abs(x))


def test_abs_float_edges(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -np.inf, np.inf, -0.0, -3.5], dtype=np.float32)
    out = run_unary(kernel, OP, x, np.float32)
    np.testing.assert_array_equal(out, np.abs(x))
    assert not np.signbit(out[3])


def test_abs_zero_dim_empty_and_strided(kernel: KernelRunner) -> None:
    np.testing.assert_array_equal(run_unary(kernel, OP, np.array(-4, dtype=np.int32), np.int32), 4)
    assert run_unary(kernel, OP, np.zeros((0, 3), dtype=np.float32), np.float32).shape == (0, 3)
    x = np.arange(-12, 12, dtype=np.int16).reshape(2, 3, 4)
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.int16, dim_order=(2, 0, 1)), np.abs(x)
    )


def test_abs_casts_to_a_wider_out(kernel: KernelRunner) -> None:
    # Computed in int8 (wrapping), then widened.
    x = np.array([-128, -3, 5], dtype=np.int8)
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.int32), np.array([-128, 3, 5], dtype=np.int32)
    )
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.float64), np.array([-128.0, 3.0, 5.0])
    )


def test_abs_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [In(np.array([True])), Out(np.bool_, (1,))],  # no bool abs in torch
        [In(np.array([1.5], dtype=np.float32)), Out(np.int32, (1,))],  # float into int
        [In(np.ones((2, 2), dtype=np.float32)), Out(np.float32, (3,))],  # wrong shape
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_abs_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, np.abs)
