from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::gelu.out"


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, approximate: str
) -> None:
    for args in calls(approximate):
        assert_matches(optimized, kernel, OP, args)


def test_gelu_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    args = [In(x), "erf", Out(np.float32, (2, 3))]
    assert_both_fail(optimized, kernel, OP, args, "approximate must be")
    assert_both_fail(optimized, kernel, OP, [In(x), "none", Out(np.float32, (6,))], "")
