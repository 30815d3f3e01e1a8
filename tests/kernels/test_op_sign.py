from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import ALL, check_bfloat16, run_unary, sample

OP = "aten::sign.out"


@pytest.mark.parametrize("dtype", ALL)
def test_sign_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    expected = x.copy() if dtype is np.bool_ else np.sign(x)
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype), expected)


def test_sign_of_nan_is_zero_like_torch(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -np.inf, np.inf, -0.0, 1e-30], dtype=np.float32)
    out = run_unary(kernel, OP, x, np.float32)
    np.testing.assert_array_equal(out, np.array([0.0, -1.0, 1.0, 0.0, 1.0], dtype=np.float32))
    assert not np.signbit(out[3])


def test_sign_zero_dim_empty_and_wider_out(kernel: KernelRunner) -> None:
    np.testing.assert_array_equal(run_unary(kernel, OP, np.array(-9, dtype=np.int16), np.int16), -1)
    assert run_unary(kernel, OP, np.zeros((0,), dtype=np.float16), np.float16).shape == (0,)
    x = np.array([-3, 0, 4], dtype=np.int8)
    np.testing.assert_array_equal(run_unary(kernel, OP, x, np.float64), np.array([-1.0, 0.0, 1.0]))


def test_sign_errors_are_one_line(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.array([-1], dtype=np.int32)), Out(np.bool_, (1,))])


def test_sign_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, np.sign)
