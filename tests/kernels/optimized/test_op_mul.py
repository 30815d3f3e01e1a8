from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.binary_cases import (
    EXTREMES,
    SHAPES,
    channels_last,
    gate_cases,
    operands,
    out_for,
)
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::mul.out"
SCALAR_OP = "aten::mul.Scalar_out"


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_mul_matches_portable(optimized: KernelRunner, kernel: KernelRunner, shapes: tuple) -> None:
    (out,) = assert_matches(optimized, kernel, OP, [*operands(shapes), out_for(shapes)])
    a, b = (arg.array for arg in operands(shapes))  # type: ignore[attr-defined]
    np.testing.assert_array_equal(out, a * b)


def test_mul_layouts_extremes_and_scalar(optimized: KernelRunner, kernel: KernelRunner) -> None:
    out = Out(np.float32, (2, 3, 4, 5), (0, 2, 3, 1))
    assert_matches(optimized, kernel, OP, [channels_last(1), channels_last(2), out])
    a, b = EXTREMES
    assert_matches(optimized, kernel, OP, [In(a), In(b), Out(np.float32, a.shape)])
    x = random((3, 21), 4)
    for other in [2.5, 3, True, 1e38]:
        assert_matches(optimized, kernel, SCALAR_OP, [In(x), other, Out(np.float32, x.shape)])


def test_mul_channels_last_by_a_gate_per_pixel(
    optimized: KernelRunner, kernel: KernelRunner
) -> None:
    # An SE block's x * sigmoid(gate): the gate [N, C, 1, 1] read as a row per image.
    for args in gate_cases(7):
        (out,) = assert_matches(optimized, kernel, OP, args)
        a, b = (arg.array for arg in args[:2])  # type: ignore[attr-defined]
        np.testing.assert_array_equal(out, a * b)


def test_mul_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 5)
    args = [In(x), In(random((3, 2), 6)), Out(np.float32, (2, 3))]
    assert_both_fail(optimized, kernel, OP, args, "cannot be broadcast")
    assert_both_fail(optimized, kernel, SCALAR_OP, [In(x), 2, Out(np.float32, (3,))], "")
