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
