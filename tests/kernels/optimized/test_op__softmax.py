from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random
from tests.kernels.optimized.conftest import Runners
from tests.kernels.optimized.softmax_cases import calls

OP = "aten::_softmax.out"


@pytest.mark.parametrize("args", calls())
def test_softmax_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, args: list
) -> None:
    assert_matches(optimized, kernel, OP, args)


def test_softmax_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 3)
    assert_both_fail(optimized, kernel, OP, [In(x), 2, False, Out(np.float32, (2, 3))], "dim")
    assert_both_fail(optimized, kernel, OP, [In(x), 1, True, Out(np.float32, (2, 3))], "half")
    args = [In(x), 1, False, Out(np.float64, (2, 3))]
    assert_both_fail(optimized, kernel, OP, args, "out must have self's dtype")


@pytest.mark.parametrize("shape", [(3, 197, 197), (40, 1000)], ids=str)
def test_softmax_split_over_threads_gives_the_same_bits(runners: Runners, shape: tuple) -> None:
    """Rows enough to split (Note [Split elementwise]): a ViT's attention scores."""
    runners.close(OP, [In(random(shape, 3)), -1, False, Out(np.float32, shape)], shape[-1])
