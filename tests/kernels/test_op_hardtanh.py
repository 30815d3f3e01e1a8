from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import FLOATING, INTEGER, check_bfloat16, run_unary, sample

OP = "aten::hardtanh.out"


@pytest.mark.parametrize("dtype", FLOATING)
def test_hardtanh_floats(kernel: KernelRunner, dtype: type) -> None:
    x = np.concatenate([sample(dtype, (12,)), np.array([np.nan, np.inf, -np.inf], dtype=dtype)])
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype, -1, 1), np.clip(x, -1, 1))
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype, 0.0, 6.0), np.clip(x, 0, 6))


@pytest.mark.parametrize("dtype", INTEGER)
def test_hardtanh_integers_truncate_the_limits(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    low = 0 if dtype is np.uint8 else -1
    # Limits 2.7 and -1.9 act as 2 and -1: no promotion to floating point.
    out = run_unary(kernel, OP, x, dtype, float(low) - 0.9 if low else 0.0, 2.7)
    np.testing.assert_array_equal(out, np.clip(x, low, 2).astype(dtype))


def test_hardtanh_zero_dim_empty_and_strided(kernel: KernelRunner) -> None:
    np.testing.assert_array_equal(
        run_unary(kernel, OP, np.array(-3.0, dtype=np.float64), np.float64, -1, 1), -1.0
    )
    assert run_unary(kernel, OP, np.zeros((0,), dtype=np.float32), np.float32, -1, 1).shape == (0,)
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.float32, -1, 1, dim_order=(1, 2, 0)), np.clip(x, -1, 1)
    )


def test_hardtanh_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [In(np.array([1], dtype=np.uint8)), -1, 1, Out(np.uint8, (1,))],  # negative limit on uint8
        [In(np.array([True])), 0, 1, Out(np.bool_, (1,))],
        [In(np.array([1.0], dtype=np.float32)), -1, 1, Out(np.int32, (1,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_hardtanh_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, lambda x: np.clip(x, -1, 1), -1, 1)
