"""Calls for the optimized softmax and log_softmax tests: the last dim (the fast rows) at
lengths around the vector width, other dims and layouts (portable's strided rows), and
rows with large, infinite or NaN values."""

from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, Out
from tests.kernels.optimized.compare import LENGTHS, random


def calls() -> list[list[object]]:
    """(self, dim, half_to_float, out) argument lists."""
    cases: list[list[object]] = []
    for n in LENGTHS[1:]:
        x = random((3, n), n, 10.0)
        cases.append([In(x), -1, False, Out(np.float32, x.shape)])
    x = random((2, 4, 64), 1, 30.0)  # attention scores: [batch, query, key]
    for dim in (2, -1, 1, 0):
        cases.append([In(x), dim, False, Out(np.float32, x.shape)])
    last = (0, 2, 3, 1)
    x = random((2, 3, 4, 5), 2)
    cases.append([In(x, last), 1, False, Out(np.float32, x.shape, last)])  # channels: contiguous
    cases.append([In(x, last), 3, False, Out(np.float32, x.shape, last)])
    cases.append([In(np.array(1.5, dtype=np.float32)), 0, False, Out(np.float32, ())])
    cases.append([In(np.zeros((0, 5), np.float32)), 1, False, Out(np.float32, (0, 5))])
    special = np.array(
        [
            [1e30, -1e30, 0.0, 5.0, 1.0, 2.0, 3.0, 4.0, 5.0],
            [np.inf, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
            [0.0, np.nan, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
            [-np.inf, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -np.inf],
            [-100.0, 100.0, 0.0, -50.0, 50.0, 10.0, 20.0, -88.0, 88.0],
        ],
        dtype=np.float32,
    )
    cases.append([In(special), 1, False, Out(np.float32, special.shape)])
    return cases
