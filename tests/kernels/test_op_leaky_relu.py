from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import (
    FLOAT_EDGES,
    FLOATING,
    check_bfloat16,
    expected_float,
    run_unary,
    sample,
    tolerance,
)

OP = "aten::leaky_relu.out"


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("slope", [0.01, 2, -0.5])
def test_leaky_relu_matches_reference(kernel: KernelRunner, dtype: type, slope: float) -> None:
    x = np.concatenate([sample(dtype, (12,)), FLOAT_EDGES.astype(dtype)])
    out = run_unary(kernel, OP, x, dtype, slope)
    expected = expected_float(lambda v: np.where(v > 0, v, v * slope), x, dtype)
    np.testing.assert_allclose(out, expected, **tolerance(dtype))


def test_leaky_relu_zero_dim_empty_strided_and_wider_out(kernel: KernelRunner) -> None:
    np.testing.assert_allclose(
        run_unary(kernel, OP, np.array(-2.0, dtype=np.float32), np.float32, 0.25), -0.5
    )
    assert run_unary(kernel, OP, np.zeros((0,), dtype=np.float64), np.float64, 0.01).shape == (0,)
    x = np.linspace(-1, 1, 6, dtype=np.float16).reshape(2, 3)
    out = run_unary(kernel, OP, x, np.float64, 0.5, dim_order=(1, 0))
    np.testing.assert_allclose(
        out, np.where(x > 0, x, x * np.float16(0.5)).astype(np.float64), rtol=1e-3
    )


def test_leaky_relu_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [
            In(np.array([1], dtype=np.int64)),
            0.01,
            Out(np.int64, (1,)),
        ],  # torch has no integer leaky_relu
        [In(np.array([1.0], dtype=np.float32)), 0.01, Out(np.float32, (2,))],
        [In(np.array([1.0], dtype=np.float32)), None, Out(np.float32, (1,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_leaky_relu_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, lambda x: np.where(x > 0, x, x * 0.1), 0.1)
