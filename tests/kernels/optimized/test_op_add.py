from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.optimized.binary_cases import (
    CHANNELS_LAST,
    EXTREMES,
    SHAPES,
    channels_last,
    gate_cases,
    operands,
    out_for,
)
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random
from tests.kernels.optimized.conftest import Runners

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::add.out"
SCALAR_OP = "aten::add.Scalar_out"


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("alpha", [1, 2.5])
def test_add_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, shapes: tuple, alpha: object
) -> None:
    (out,) = assert_matches(optimized, kernel, OP, [*operands(shapes), alpha, out_for(shapes)])
    a, b = (arg.array for arg in operands(shapes))  # type: ignore[attr-defined]
    # Two roundings (a product, then a sum), as numpy does; or one, where the instruction set
    # the library is built for has FMA and the compiler contracts a + alpha * b (the exact
    # value, in double: alpha * b needs at most 26 bits, their sum no more than 53 here).
    twice = a + np.float32(alpha) * b
    once = (a.astype(np.float64) + float(alpha) * b.astype(np.float64)).astype(np.float32)
    assert np.all((out == twice) | (out == once)), (out, twice, once)


def test_add_channels_last(optimized: KernelRunner, kernel: KernelRunner) -> None:
    # The same dim order on all three: one loop over memory; a broadcast operand beside a
    # channels-last one: the strided walk.
    out = Out(np.float32, (2, 3, 4, 5), CHANNELS_LAST)
    assert_matches(optimized, kernel, OP, [channels_last(1), channels_last(2), 1, out])
    bias = In(random((5,), 3))
    assert_matches(optimized, kernel, OP, [channels_last(1), bias, 1, out])


def test_add_channels_last_and_a_gate_per_pixel(
    optimized: KernelRunner, kernel: KernelRunner
) -> None:
    for args in gate_cases(9):
        assert_matches(optimized, kernel, OP, [*args[:2], 1.5, args[2]])


def test_add_extremes(optimized: KernelRunner, kernel: KernelRunner) -> None:
    a, b = EXTREMES
    assert_matches(optimized, kernel, OP, [In(a), In(b), 1, Out(np.float32, a.shape)])


def test_add_scalar(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((5, 37), 4)
    for other, alpha in [(2.5, 1), (3, 2), (-1.0, 0.5), (True, 1)]:
        assert_matches(
            optimized, kernel, SCALAR_OP, [In(x), other, alpha, Out(np.float32, x.shape)]
        )
    e = np.zeros((0, 3), dtype=np.float32)
    assert_matches(optimized, kernel, SCALAR_OP, [In(e), 1.5, 1, Out(np.float32, (0, 3))])


def test_add_dynamic_out_is_resized(optimized: KernelRunner, kernel: KernelRunner) -> None:
    shapes = ((4, 33), (33,))
    out = Out(np.float32, (8, 40), dynamic=True)
    (got,) = assert_matches(optimized, kernel, OP, [*operands(shapes), 1, out])
    assert got.shape == (4, 33)


def test_add_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 5)
    bad_out = [In(x), In(x), 1, Out(np.float32, (3, 2))]
    assert_both_fail(optimized, kernel, OP, bad_out, "")
    assert_both_fail(
        optimized, kernel, OP, [In(x), In(x), True, Out(np.float32, (2, 3))], "bool alpha"
    )
    bad_shapes = [In(x), In(random((4,), 6)), 1, Out(np.float32, (2, 3))]
    assert_both_fail(optimized, kernel, OP, bad_shapes, "cannot be broadcast")
    assert_both_fail(
        optimized, kernel, SCALAR_OP, [In(x), 1.0, True, Out(np.float32, (2, 3))], "bool alpha"
    )


def test_add_other_dtypes_are_not_taken(optimized: KernelRunner) -> None:
    # Float only: the entry's dtypes send a model's Long adds to the next library.
    x = np.arange(4, dtype=np.int64)
    assert_fails(
        optimized, OP, [In(x), In(x), 1, Out(np.int64, (4,))], "dtype Long is not supported"
    )


# Note [Split elementwise]: tensors past 2^15 elements split over three threads (in lengths
# that are not multiples of the items), each layout's loop: the bits of one thread.
@pytest.mark.parametrize(
    "shapes",
    [
        ((5, 13, 1031), (5, 13, 1031)),
        ((300, 257), (257,)),
        ((300, 257), (300, 1)),
        ((67015,), (1,)),
    ],
    ids=str,
)
def test_add_split_over_threads_gives_the_same_bits(runners: Runners, shapes: tuple) -> None:
    a, b = (In(random(shape, seed)) for seed, shape in enumerate(shapes))
    out = Out(np.float32, np.broadcast_shapes(*shapes))
    runners.close(OP, [a, b, 2.5, out], 2)
    runners.close(OP, [b, a, 2.5, out], 2)


def test_add_scalar_split_over_threads_gives_the_same_bits(runners: Runners) -> None:
    x = In(random((7, 9901), 5))
    runners.close(SCALAR_OP, [x, 1.5, 2.5, Out(np.float32, (7, 9901))], 2)
