from __future__ import annotations

import math

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import FLOATING, check_bfloat16, expected_float, run_unary, tolerance

OP = "aten::gelu.out"
_erf = np.vectorize(math.erf, otypes=[np.float64])


def exact(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def tanh_approximation(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize(
    ("approximate", "reference"), [("none", exact), ("tanh", tanh_approximation)]
)
def test_gelu_matches_reference(
    kernel: KernelRunner, dtype: type, approximate: str, reference
) -> None:  # noqa: ANN001
    x = np.linspace(-6, 6, 25).astype(dtype)
    x = np.concatenate([x, np.array([np.nan, np.inf, 0.0, -0.0], dtype=dtype)])
    out = run_unary(kernel, OP, x, dtype, approximate)
    np.testing.assert_allclose(out, expected_float(reference, x, dtype), **tolerance(dtype))


def test_gelu_zero_dim_empty_and_strided(kernel: KernelRunner) -> None:
    x = np.array(1.25, dtype=np.float32)
    np.testing.assert_allclose(
        run_unary(kernel, OP, x, np.float32, "none"), exact(np.float64(1.25)), rtol=1e-6
    )
    assert run_unary(kernel, OP, np.zeros((3, 0), dtype=np.float16), np.float16, "tanh").shape == (
        3,
        0,
    )
    y = np.linspace(-2, 2, 12).reshape(3, 4)
    out = run_unary(kernel, OP, y, np.float64, "tanh", dim_order=(1, 0))
    np.testing.assert_allclose(out, tanh_approximation(y), rtol=1e-12)


def test_gelu_half_into_float_out(kernel: KernelRunner) -> None:
    x = np.array([-1.0, 0.5, 2.0], dtype=np.float16)
    out = run_unary(kernel, OP, x, np.float32, "none")
    np.testing.assert_allclose(
        out, exact(x.astype(np.float64)).astype(np.float16).astype(np.float32), rtol=1e-6
    )


def test_gelu_errors_are_one_line(kernel: KernelRunner) -> None:
    f = np.array([1.0], dtype=np.float32)
    cases = [
        [In(f), "erf", Out(np.float32, (1,))],  # unknown approximation
        [In(f), 1, Out(np.float32, (1,))],  # not a string
        [
            In(np.array([1], dtype=np.int32)),
            "none",
            Out(np.float32, (1,)),
        ],  # torch has no integer gelu
        [In(f), "none", Out(np.int32, (1,))],
    ]
    for args in cases:
        assert_fails(kernel, OP, args)


def test_gelu_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, tanh_approximation, "tanh")
