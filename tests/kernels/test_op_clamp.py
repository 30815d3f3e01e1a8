from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import FLOATING, REAL, check_bfloat16, run_unary, sample

OP = "aten::clamp.out"


@pytest.mark.parametrize("dtype", REAL)
def test_clamp_integer_bounds_keep_the_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, dtype, 1, 100), np.clip(x, 1, 100).astype(dtype)
    )
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, dtype, None, 2), np.minimum(x, 2).astype(dtype)
    )
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, dtype, 2, None), np.maximum(x, 2).astype(dtype)
    )


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.int64])
def test_clamp_float_bounds_promote_to_float(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (2, 3))
    out = run_unary(kernel, OP, x, np.float32, 0.5, 6.5)
    np.testing.assert_array_equal(out, np.clip(x.astype(np.float32), 0.5, 6.5))


def test_clamp_bool_with_integer_bounds_gives_long(kernel: KernelRunner) -> None:
    x = np.array([True, False, True])
    np.testing.assert_array_equal(run_unary(kernel, OP, x, np.int64, 1, 3), np.array([1, 1, 1]))
    np.testing.assert_array_equal(run_unary(kernel, OP, x, np.int64, None, 0), np.array([0, 0, 0]))


@pytest.mark.parametrize("dtype", FLOATING)
def test_clamp_floats_propagate_nan(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([np.nan, -np.inf, np.inf, -0.5, 0.25, 3.0], dtype=dtype)
    out = run_unary(kernel, OP, x, dtype, -0.25, 1)
    np.testing.assert_array_equal(out, np.clip(x, -0.25, 1).astype(dtype))


def test_clamp_min_above_max_gives_max(kernel: KernelRunner) -> None:
    x = np.array([-5.0, 0.0, 5.0], dtype=np.float32)
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.float32, 3, 1), np.full(3, 1.0, dtype=np.float32)
    )


def test_clamp_zero_dim_empty_strided_and_wider_out(kernel: KernelRunner) -> None:
    np.testing.assert_array_equal(
        run_unary(kernel, OP, np.array(7, dtype=np.int16), np.int16, 0, 5), 5
    )
    assert run_unary(kernel, OP, np.zeros((0, 4), dtype=np.float32), np.float32, 0, 1).shape == (
        0,
        4,
    )
    x = np.arange(-12, 12, dtype=np.int32).reshape(4, 6)
    out = run_unary(kernel, OP, x, np.float64, -3, 4, dim_order=(1, 0))
    np.testing.assert_array_equal(out, np.clip(x, -3, 4).astype(np.float64))


def test_clamp_errors_are_one_line(kernel: KernelRunner) -> None:
    ints = np.array([1, 2], dtype=np.int8)
    cases = [
        [In(ints), None, None, Out(np.int8, (2,))],  # no bound at all
        [In(ints), 0.5, None, Out(np.int8, (2,))],  # Float result into int8
        [In(ints), 0, 1000, Out(np.int8, (2,))],  # bound overflows int8
        [In(np.array([True])), True, None, Out(np.bool_, (1,))],  # no bool clamp
        [In(ints), 0, 1, Out(np.int8, (3,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_clamp_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, lambda x: np.clip(x, -1, 1.5), -1, 1.5)
