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

OP = "aten::elu.out"


def reference(alpha: float, scale: float, input_scale: float):  # noqa: ANN201
    return lambda x: np.where(x > 0, x * scale, np.expm1(x * input_scale) * alpha * scale)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize(
    "params", [(1, 1, 1), (0.5, 1.0507, 2.0), (1.6732632423543772, 1.0507009873554805, 1)]
)
def test_elu_matches_reference(
    kernel: KernelRunner, dtype: type, params: tuple[float, float, float]
) -> None:
    x = np.concatenate([sample(dtype, (12,)), FLOAT_EDGES.astype(dtype)])
    out = run_unary(kernel, OP, x, dtype, *params)
    np.testing.assert_allclose(
        out, expected_float(reference(*params), x, dtype), **tolerance(dtype)
    )


def test_elu_zero_dim_empty_and_strided(kernel: KernelRunner) -> None:
    np.testing.assert_allclose(
        run_unary(kernel, OP, np.array(-1.0, dtype=np.float64), np.float64, 1, 1, 1), np.expm1(-1.0)
    )
    assert run_unary(kernel, OP, np.zeros((2, 0), dtype=np.float32), np.float32, 1, 1, 1).shape == (
        2,
        0,
    )
    x = np.linspace(-3, 3, 24).reshape(2, 3, 4)
    out = run_unary(kernel, OP, x, np.float64, 2.0, 1, 1, dim_order=(2, 0, 1))
    np.testing.assert_allclose(out, reference(2.0, 1, 1)(x), rtol=1e-12)


def test_elu_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [
            In(np.array([1], dtype=np.int32)),
            1,
            1,
            1,
            Out(np.int32, (1,)),
        ],  # torch has no integer elu
        [In(np.array([1.0], dtype=np.float32)), 1, 1, 1, Out(np.int32, (1,))],
        [In(np.array([1.0], dtype=np.float32)), 1, 1, 1, Out(np.float32, (3,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_elu_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, reference(1.5, 1, 1), 1.5, 1, 1)
