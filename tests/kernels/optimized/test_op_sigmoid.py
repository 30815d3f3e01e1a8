from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random
from tests.kernels.optimized.conftest import Runners
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::sigmoid.out"


@pytest.mark.parametrize("args", calls())
def test_sigmoid_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, args: list
) -> None:
    assert_matches(optimized, kernel, OP, args)


def test_sigmoid_wrong_out_shape(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_both_fail(optimized, kernel, OP, [In(x), Out(np.float32, (3, 2))], "")


def test_sigmoid_split_over_threads_gives_the_same_bits(runners: Runners) -> None:
    # Note [Split elementwise]: 67,015 elements over three threads, the bits of one.
    x = random((5, 13, 1031), 3)
    runners.close(OP, [In(x), Out(np.float32, x.shape)], 1)


def test_sigmoid_within_four_ulps_of_the_exact_value(optimized: KernelRunner) -> None:
    # Note [Sigmoid] (elem/vmath.h): 2^16 arguments evenly over [-90, 90] against
    # 1 / (1 + e^-x) in double. Where the exact value is a normal float, at most 4 float
    # ulps; below, an absolute error under 2^-126.
    x = np.linspace(-90.0, 90.0, 1 << 16, dtype=np.float32)
    (got,) = optimized.run(OP, [In(x), Out(np.float32, x.shape)])
    exact = 1.0 / (1.0 + np.exp(-x.astype(np.float64)))
    error = np.abs(got.astype(np.float64) - exact)
    tiny = float(np.finfo(np.float32).tiny)
    normal = exact >= tiny
    ulps = error[normal] / np.spacing(exact[normal].astype(np.float32)).astype(np.float64)
    assert ulps.max() <= 4.0, (ulps.max(), x[normal][ulps.argmax()])
    assert error[~normal].max() < tiny


def test_sigmoid_of_nan_and_infinities(optimized: KernelRunner) -> None:
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 200.0, -200.0], dtype=np.float32)
    (got,) = optimized.run(OP, [In(x), Out(np.float32, x.shape)])
    assert np.isnan(got[0])
    assert got[1:].tolist() == [1.0, 0.0, 0.5, 0.5, 1.0, 0.0]
