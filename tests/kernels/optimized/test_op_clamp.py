from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::clamp.out"

# Either bound alone (None is the other), both, integer bounds, min above max.
BOUNDS = [(None, 0.5), (-0.5, None), (-2.0, 3.0), (-1, 2), (2.0, -2.0)]


@pytest.mark.parametrize("bounds", BOUNDS, ids=str)
def test_clamp_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, bounds: tuple[object, object]
) -> None:
    for args in calls(*bounds):
        assert_matches(optimized, kernel, OP, args)


def test_clamp_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    args = [In(x), None, None, Out(np.float32, (2, 3))]
    assert_both_fail(optimized, kernel, OP, args, "at least one of min and max")
    assert_both_fail(optimized, kernel, OP, [In(x), 0.0, 1.0, Out(np.float32, (3,))], "")
