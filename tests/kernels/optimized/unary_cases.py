"""Inputs for the optimized activations' tests: lengths around the vector width and the
loops' tails, values where the vector math of kernels/optimized/elem/vmath.h changes
formula or saturates, and layouts for both paths."""

from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, Out
from tests.kernels.optimized.compare import LENGTHS, random

EXTREMES = np.array(
    [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-7, -1e-7, 0.39, 0.41, -0.41, 1.0, 5.0, -5.0]
    + [20.0, -20.0, 44.0, -44.0, 88.0, 88.5, -87.0, -87.5, 100.0, -100.0, 3e38, -3e38],
    dtype=np.float32,
)


def calls(*params: object) -> list[list[object]]:
    """Argument lists (self, `params`..., out) for one unary op: every length, a 3-d
    tensor, the extremes, a 0-dim tensor, a channels-last input and out (one loop over
    memory) and a channels-last input into a contiguous out (portable's strided walk)."""
    cases: list[list[object]] = []

    def add(x: In, out: Out) -> None:
        cases.append([x, *params, out])

    for n in LENGTHS:
        add(In(random((n,), n, 8.0)), Out(np.float32, (n,)))
    add(In(random((3, 5, 7), 7, 8.0)), Out(np.float32, (3, 5, 7)))
    add(In(EXTREMES), Out(np.float32, EXTREMES.shape))
    add(In(np.array(0.75, dtype=np.float32)), Out(np.float32, ()))
    last = (0, 2, 3, 1)
    add(In(random((2, 3, 4, 5), 9), last), Out(np.float32, (2, 3, 4, 5), last))
    add(In(random((2, 3, 4, 5), 10), last), Out(np.float32, (2, 3, 4, 5)))
    return cases
