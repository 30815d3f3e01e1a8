from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::hardtanh.out"

# relu6 (hardtanh(0, 6)), the default (-1, 1), integer bounds, and min above max (max wins).
BOUNDS = [(0.0, 6.0), (-1, 1), (-2.5, 0.5), (3.0, -3.0)]


@pytest.mark.parametrize("bounds", BOUNDS, ids=str)
def test_hardtanh_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, bounds: tuple[float, float]
) -> None:
    for args in calls(*bounds):
        assert_matches(optimized, kernel, OP, args)


def test_hardtanh_wrong_out_shape(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_both_fail(optimized, kernel, OP, [In(x), 0.0, 6.0, Out(np.float32, (3,))], "")
