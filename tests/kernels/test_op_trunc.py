from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import REAL, check_bfloat16, run_unary, sample

OP = "aten::trunc.out"


@pytest.mark.parametrize("dtype", REAL)
def test_trunc_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    # Integers come back unchanged, in their own dtype.
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype), np.trunc(x).astype(dtype))


def test_trunc_rounds_towards_zero_keeping_signs(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -np.inf, np.inf, -0.5, 0.5, -1.7, 1.7, 1e20, -2.5], dtype=np.float32)
    out = run_unary(kernel, OP, x, np.float32)
    np.testing.assert_array_equal(out, np.trunc(x))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(np.trunc(x)))


def test_trunc_empty_strided_and_wider_out(kernel: KernelRunner) -> None:
    assert run_unary(kernel, OP, np.zeros((0, 2), dtype=np.float32), np.float32).shape == (0, 2)
    x = (np.arange(24, dtype=np.float16).reshape(2, 3, 4) - 11.5) / 3
    out = run_unary(kernel, OP, x, np.float32, dim_order=(0, 2, 1))
    np.testing.assert_array_equal(out, np.trunc(x).astype(np.float32))


def test_trunc_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [In(np.array([True])), Out(np.bool_, (1,))],
        [In(np.array([1.5], dtype=np.float32)), Out(np.int64, (1,))],
        [In(np.ones((2, 2), dtype=np.float32)), Out(np.float32, (4,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_trunc_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, np.trunc)
