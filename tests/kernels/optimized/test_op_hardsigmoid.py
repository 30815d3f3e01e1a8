from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.hard_cases import EDGES, HARDSIGMOID
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import LENGTHS, assert_both_fail, random
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = HARDSIGMOID


def _same_bits(optimized: KernelRunner, portable: KernelRunner, args: list[object]) -> None:
    # The vector loop does portable's operations in portable's order: identical bits (NaN and
    # the sign of zero included), not just values within the tolerance table.
    (fast,) = optimized.run(OP, args)
    (reference,) = portable.run(OP, args)
    assert fast.dtype == reference.dtype and fast.shape == reference.shape
    np.testing.assert_array_equal(fast.view(np.uint32), reference.view(np.uint32))


@pytest.mark.parametrize("args", calls())
def test_hardsigmoid_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, args: list[object]
) -> None:
    _same_bits(optimized, kernel, args)


@pytest.mark.parametrize("length", LENGTHS)
def test_hardsigmoid_edges_at_every_lane(
    optimized: KernelRunner, kernel: KernelRunner, length: int
) -> None:
    # The saturation points, their neighbours, zeros, NaN and infinities spread over the
    # vector lanes and the partial tail, among random values in [-5, 5).
    x = random((length,), length, 5.0)
    x[::3] = np.resize(EDGES, x[::3].shape)
    _same_bits(optimized, kernel, [In(x), Out(np.float32, x.shape)])


def test_hardsigmoid_wrong_out_shape(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_both_fail(optimized, kernel, OP, [In(x), Out(np.float32, (3, 2))], "")
