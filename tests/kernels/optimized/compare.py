"""Running one call on the optimized runner and on portable's, and judging the outputs by
the project's tolerance table (codegen/tolerances.py): the check every optimized kernel
test makes, on shapes chosen to hit each fast path and its edges."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from selective_build.codegen.tolerances import mismatches, tolerance
from tests.kernels.harness import KernelRunner, assert_fails

# Sizes around the loops' block of 16 and a SIMD width of 4 or 8: empty, shorter than a
# block, one block, a block and a tail, several blocks.
LENGTHS = [0, 1, 3, 7, 16, 17, 33, 100]


def random(shape: tuple[int, ...], seed: int, scale: float = 4.0) -> np.ndarray:
    """Float32 values in [-scale, scale): the same for the same arguments."""
    values = np.random.default_rng(seed).uniform(-scale, scale, size=shape)
    return values.astype(np.float32)


def assert_matches(
    optimized: KernelRunner, portable: KernelRunner, op: str, args: Sequence[object]
) -> list[np.ndarray]:
    """Both runners accept the call and agree within the tolerance table; the outputs."""
    fast = optimized.run(op, args)
    reference = portable.run(op, args)
    assert len(fast) == len(reference)
    for got, expected in zip(fast, reference, strict=True):
        assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
        atol, rtol = tolerance(expected.dtype.name)
        bad = mismatches(got, expected, atol, rtol)
        assert not bad.any(), (op, got[bad][:5], expected[bad][:5])
    return fast


def assert_both_fail(
    optimized: KernelRunner, portable: KernelRunner, op: str, args: Sequence[object], text: str
) -> None:
    """Both runners refuse the call in one line naming `op`, with `text` after the name."""
    assert_fails(optimized, op, args, text)
    assert_fails(portable, op, args, text)
