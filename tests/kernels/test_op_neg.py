from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import REAL, check_bfloat16, run_unary, sample

OP = "aten::neg.out"


@pytest.mark.parametrize("dtype", REAL)
def test_neg_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    # Integers wrap around (uint8 included), as numpy's negative does.
    with np.errstate(over="ignore"):
        expected = np.negative(x)
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype), expected)


def test_neg_float_edges_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -np.inf, np.inf, 0.0, -0.0], dtype=np.float64)
    out = run_unary(kernel, OP, x, np.float64)
    np.testing.assert_array_equal(out, -x)
    assert np.signbit(out[3]) and not np.signbit(out[4])
    np.testing.assert_array_equal(run_unary(kernel, OP, np.array(3, dtype=np.int64), np.int64), -3)
    assert run_unary(kernel, OP, np.zeros((2, 0), dtype=np.int8), np.int8).shape == (2, 0)


def test_neg_into_other_dtype_and_strided(kernel: KernelRunner) -> None:
    x = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)
    np.testing.assert_array_equal(
        run_unary(kernel, OP, x, np.float32, dim_order=(1, 0)), -x.astype(np.float32)
    )


def test_neg_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [In(np.array([True])), Out(np.bool_, (1,))],  # torch refuses to negate bool
        [In(np.array([1.5], dtype=np.float16)), Out(np.int16, (1,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_neg_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, np.negative)
