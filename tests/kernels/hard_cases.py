"""MobileNetV3's activations, hardswish and hardsigmoid: numpy references, the values where
their formula changes (the shared part of the portable and the optimized kernels' tests), and
the portable kernels' tests, which both operators share: each operator's test file names its
`activation` fixture and imports these tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import (
    FLOATING,
    check_bfloat16,
    check_float_op,
    check_float_op_errors,
    run_unary,
    tolerance,
)

HARDSWISH = "aten::hardswish.out"
HARDSIGMOID = "aten::hardsigmoid.out"


def hardsigmoid(x: np.ndarray) -> np.ndarray:
    return np.clip(x + 3, 0, 6) / 6


def hardswish(x: np.ndarray) -> np.ndarray:
    return x * np.clip(x + 3, 0, 6) / 6


REFERENCES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    HARDSWISH: hardswish,
    HARDSIGMOID: hardsigmoid,
}

# Both saturation points (x + 3 = 0 and x + 3 = 6) and the floats either side, zeros of both
# signs, NaN, infinities (hardswish(+inf) = inf, hardswish(-inf) = -inf * 0 = NaN in torch:
# -inf + 3 clamps to 0, and -inf * 0 is NaN) and the largest finite values.
_POINTS = np.array([-3.0, 3.0], dtype=np.float32)
EDGES = np.concatenate(
    [
        np.array(
            [-0.0, 0.0, 1.0, -1.0, -6.0, 6.0, np.nan, np.inf, -np.inf, 3.4e38, -3.4e38],
            dtype=np.float32,
        ),
        _POINTS,
        np.nextafter(_POINTS, np.float32(-np.inf)),
        np.nextafter(_POINTS, np.float32(np.inf)),
    ]
)


@dataclass(frozen=True)
class Activation:
    op: str
    reference: Callable[[np.ndarray], np.ndarray]


@pytest.mark.parametrize("dtype", FLOATING)
def test_matches_numpy(kernel: KernelRunner, activation: Activation, dtype: type) -> None:
    op, reference = activation.op, activation.reference
    check_float_op(kernel, op, reference, dtype)
    # The edges in the kernel's own arithmetic (Float for the 16-bit dtypes, rounded once):
    # hardswish(3.4e38) overflows to inf in x * 6 as in torch, not in a float64 reference.
    compute = np.float64 if dtype is np.float64 else np.float32
    with np.errstate(all="ignore"):
        x = EDGES.astype(dtype)
        expected = reference(x.astype(compute)).astype(dtype)
    np.testing.assert_allclose(run_unary(kernel, op, x, dtype), expected, **tolerance(dtype))


def test_zero_dim_empty_and_strided(kernel: KernelRunner, activation: Activation) -> None:
    op, reference = activation.op, activation.reference
    x = np.array(-1.5, dtype=np.float32)
    np.testing.assert_allclose(run_unary(kernel, op, x, np.float32), reference(x), rtol=1e-6)
    assert run_unary(kernel, op, np.zeros((0, 3), np.float64), np.float64).shape == (0, 3)
    y = np.linspace(-5, 5, 24).reshape(2, 3, 4)
    out = run_unary(kernel, op, y, np.float64, dim_order=(2, 1, 0))
    np.testing.assert_allclose(out, reference(y), rtol=1e-15)


def test_refuses_integers_as_torch_does(kernel: KernelRunner, activation: Activation) -> None:
    x = np.array([-4, 0, 4], dtype=np.int64)
    assert_fails(kernel, activation.op, [In(x), Out(np.float32, (3,))])


def test_errors_are_one_line(kernel: KernelRunner, activation: Activation) -> None:
    check_float_op_errors(kernel, activation.op)


def test_bfloat16(kernel: KernelRunner, activation: Activation) -> None:
    check_bfloat16(kernel, activation.op, activation.reference)
