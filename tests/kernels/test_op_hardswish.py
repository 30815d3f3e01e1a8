from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.hard_cases import EDGES, HARDSWISH, hardswish
from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import (
    FLOATING,
    check_bfloat16,
    check_float_op,
    check_float_op_errors,
    run_unary,
    tolerance,
)

OP = HARDSWISH


@pytest.mark.parametrize("dtype", FLOATING)
def test_hardswish_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    check_float_op(kernel, OP, hardswish, dtype)
    # The edges in the kernel's own arithmetic (Float for the 16-bit dtypes, rounded once):
    # hardswish(3.4e38) overflows to inf in x * 6 as in torch, not in a float64 reference.
    compute = np.float64 if dtype is np.float64 else np.float32
    with np.errstate(all="ignore"):
        x = EDGES.astype(dtype)
        expected = hardswish(x.astype(compute)).astype(dtype)
    np.testing.assert_allclose(run_unary(kernel, OP, x, dtype), expected, **tolerance(dtype))


def test_hardswish_zero_dim_empty_and_strided(kernel: KernelRunner) -> None:
    x = np.array(-1.5, dtype=np.float32)
    np.testing.assert_allclose(run_unary(kernel, OP, x, np.float32), hardswish(x), rtol=1e-6)
    assert run_unary(kernel, OP, np.zeros((0, 3), np.float64), np.float64).shape == (0, 3)
    y = np.linspace(-5, 5, 24).reshape(2, 3, 4)
    out = run_unary(kernel, OP, y, np.float64, dim_order=(2, 1, 0))
    np.testing.assert_allclose(out, hardswish(y), rtol=1e-15)


def test_hardswish_refuses_integers_as_torch_does(kernel: KernelRunner) -> None:
    x = np.array([-4, 0, 4], dtype=np.int64)
    assert_fails(kernel, OP, [In(x), Out(np.float32, (3,))])


def test_hardswish_errors_are_one_line(kernel: KernelRunner) -> None:
    check_float_op_errors(kernel, OP)


def test_hardswish_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, hardswish)
