from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.binary_cases import EXTREMES, SHAPES, channels_last, operands, out_for
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::sub.out"
SCALAR_OP = "aten::sub.Scalar_out"


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_sub_matches_portable(optimized: KernelRunner, kernel: KernelRunner, shapes: tuple) -> None:
    # Operand order matters: a broadcast self takes the swapped loops.
    (out,) = assert_matches(optimized, kernel, OP, [*operands(shapes), 2, out_for(shapes)])
    a, b = (arg.array for arg in operands(shapes))  # type: ignore[attr-defined]
    np.testing.assert_allclose(out, a - 2 * b, rtol=1e-6)


def test_sub_layouts_extremes_and_scalar(optimized: KernelRunner, kernel: KernelRunner) -> None:
    out = Out(np.float32, (2, 3, 4, 5), (0, 2, 3, 1))
    assert_matches(optimized, kernel, OP, [channels_last(1), In(random((5,), 3)), 1, out])
    a, b = EXTREMES
    assert_matches(optimized, kernel, OP, [In(a), In(b), 0.5, Out(np.float32, a.shape)])
    x = random((3, 21), 4)
    for other, alpha in [(2.5, 1), (3, -2)]:
        args = [In(x), other, alpha, Out(np.float32, x.shape)]
        assert_matches(optimized, kernel, SCALAR_OP, args)


def test_sub_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 5)
    args = [In(x), True, 1, Out(np.float32, (2, 3))]
    assert_both_fail(optimized, kernel, SCALAR_OP, args, "bool operands")
    args = [In(x), In(x), 1, Out(np.float32, (2, 4))]
    assert_both_fail(optimized, kernel, OP, args, "")
