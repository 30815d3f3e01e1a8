"""Operand shapes for the optimized binary ops' tests: one or more per fast layout of
Note [Fast binary layouts] (kernels/optimized/elem/binary.h) and some the fast path must
leave to portable's template."""

from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, Out
from tests.kernels.optimized.compare import LENGTHS, random

# (self shape, other shape)
SHAPES: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
    *[((n,), (n,)) for n in LENGTHS],  # same shape, around the block size
    ((3, 5, 7), (3, 5, 7)),
    ((2, 17), ()),  # scalar other (0-dim)
    ((), (2, 17)),  # scalar self
    ((33,), (1,)),
    ((4, 33), (33,)),  # row: a bias over the last dim
    ((33,), (4, 33)),
    ((2, 3, 17), (3, 17)),  # row over the last two dims
    ((2, 3, 17), (1, 1, 17)),
    ((4, 33), (4, 1)),  # column: one value per row (RMSNorm's x * rsqrt(mean))
    ((2, 3, 1), (2, 3, 19)),
    ((4, 1, 3), (1, 5, 1)),  # both broadcast: portable's strided walk
    ((3, 1), (1, 4)),
    ((2, 1, 5), (2, 4, 5)),  # a middle dim broadcast: strided walk
    ((0, 4), (4,)),  # empty
    ((), ()),
]


def operands(
    shapes: tuple[tuple[int, ...], tuple[int, ...]], nonzero: bool = False
) -> list[object]:
    """[In(self), In(other)] for `shapes`; `nonzero` keeps other away from 0 (division)."""
    a = random(shapes[0], 1)
    b = random(shapes[1], 2)
    if nonzero:
        b = np.where(np.abs(b) < 0.25, np.float32(0.5), b).astype(np.float32)
    return [In(a), In(b)]


def out_for(shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> Out:
    return Out(np.float32, np.broadcast_shapes(*shapes))


CHANNELS_LAST = (0, 2, 3, 1)


def channels_last(seed: int) -> In:
    """A [2, 3, 4, 5] input stored channels-last."""
    return In(random((2, 3, 4, 5), seed), CHANNELS_LAST)


# Values whose results overflow, divide by zero or carry NaN: both runners must agree.
EXTREMES = (
    np.array([3e38, -3e38, 1e-38, 0.0, -0.0, np.inf, -np.inf, np.nan, 1.0], dtype=np.float32),
    np.array([3e38, 3e38, 1e10, 0.0, 0.0, 1.0, np.inf, 2.0, -0.0], dtype=np.float32),
)


def gate_cases(seed: int) -> list[list[object]]:
    """Note [Fast binary layouts]'s channels-last out with an [N, C, 1, 1] operand (an SE
    block's gate), the gate contiguous or channels last, on either side; 40 channels (past a
    vector, not a multiple of one), 2 images: [self, other, out] each."""
    x = In(random((2, 40, 3, 5), seed), CHANNELS_LAST)
    cases: list[list[object]] = []
    for order in (None, CHANNELS_LAST):
        gate = In(random((2, 40, 1, 1), seed + 1), order)
        out = Out(np.float32, (2, 40, 3, 5), CHANNELS_LAST)
        cases += [[x, gate, out], [gate, x, out]]
    return cases
