from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.binary_cases import EXTREMES, SHAPES, channels_last, operands, out_for
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::div.out"
SCALAR_OP = "aten::div.Scalar_out"


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_div_matches_portable(optimized: KernelRunner, kernel: KernelRunner, shapes: tuple) -> None:
    args = [*operands(shapes, nonzero=True), out_for(shapes)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    a, b = (arg.array for arg in args[:2])  # type: ignore[attr-defined]
    np.testing.assert_array_equal(out, a / b)


def test_div_layouts_extremes_and_scalar(optimized: KernelRunner, kernel: KernelRunner) -> None:
    out = Out(np.float32, (2, 3, 4, 5), (0, 2, 3, 1))
    assert_matches(optimized, kernel, OP, [channels_last(1), channels_last(2), out])
    a, b = EXTREMES  # x / 0, 0 / 0, inf / inf
    with np.errstate(all="ignore"):
        (got,) = assert_matches(optimized, kernel, OP, [In(a), In(b), Out(np.float32, a.shape)])
        np.testing.assert_array_equal(got, a / b)
    x = random((3, 21), 4)
    for other in [2.5, 3, 0.0, -7]:
        assert_matches(optimized, kernel, SCALAR_OP, [In(x), other, Out(np.float32, x.shape)])


def test_div_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 5)
    args = [In(x), In(x), Out(np.float32, (6,))]
    assert_both_fail(optimized, kernel, OP, args, "")
