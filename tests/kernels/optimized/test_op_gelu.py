from __future__ import annotations

import math

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


def gelu_in_double(x: np.ndarray) -> np.ndarray:
    erf = np.frompyfunc(math.erf, 1, 1)
    z = x.astype(np.float64)
    return 0.5 * z * (1.0 + erf(z / math.sqrt(2.0)).astype(np.float64))


def test_gelu_within_its_notes_bounds(optimized: KernelRunner) -> None:
    # Note [GELU]: at most 1.6e-6 absolute anywhere (SSE2, without FMA) and 6e-7 relative
    # for x >= -1, over a dense sweep that crosses the rational form's limits at +-5.54.
    x = np.linspace(-10.0, 10.0, 1 << 17, dtype=np.float32)
    (got,) = optimized.run(OP, [In(x), "none", Out(np.float32, x.shape)])
    expected = gelu_in_double(x)
    error = np.abs(got.astype(np.float64) - expected)
    assert error.max() <= 1.6e-6, x[error.argmax()]
    upper = x >= -1.0
    relative = error[upper] / np.maximum(np.abs(expected[upper]), 1e-30)
    assert relative.max() <= 6e-7, x[upper][relative.argmax()]
