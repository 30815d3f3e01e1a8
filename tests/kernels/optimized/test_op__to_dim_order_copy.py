from __future__ import annotations

import numpy as np

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "dim_order_ops::_to_dim_order_copy.out"
LAST = (0, 2, 3, 1)


def test_to_dim_order_copy_same_layout(optimized: KernelRunner, kernel: KernelRunner) -> None:
    for shape in [(17,), (2, 3, 4, 5), (), (0, 3)]:
        x = random(shape, 1)
        (out,) = assert_matches(optimized, kernel, OP, [In(x), False, None, Out(np.float32, shape)])
        np.testing.assert_array_equal(out, x)
    x = random((2, 3, 4, 5), 2)
    args = [In(x, LAST), False, IntList(LAST), Out(np.float32, x.shape, LAST)]
    assert_matches(optimized, kernel, OP, args)


def test_to_dim_order_copy_changes_dim_order(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3, 4, 5), 3)
    args = [In(x), False, IntList(LAST), Out(np.float32, x.shape, LAST)]
    assert_matches(optimized, kernel, OP, args)
    args = [In(x, LAST), False, IntList((0, 1, 2, 3)), Out(np.float32, x.shape)]
    assert_matches(optimized, kernel, OP, args)


def test_to_dim_order_copy_between_contiguous_and_channels_last_in_tiles(
    optimized: KernelRunner, kernel: KernelRunner
) -> None:
    # A transpose per image in 16 x 16 tiles with tails (40 channels, 99 pixels), both ways.
    x = random((2, 40, 9, 11), 5)
    for before, after in [(None, LAST), (LAST, (0, 1, 2, 3))]:
        args = [In(x, before), False, IntList(after), Out(np.float32, x.shape, after)]
        (out,) = assert_matches(optimized, kernel, OP, args)
        np.testing.assert_array_equal(out, x)


def test_to_dim_order_copy_other_dtypes_and_conversions(
    optimized: KernelRunner, kernel: KernelRunner
) -> None:
    # The entry declares every dtype (an operator selected by name gets this kernel alone):
    # Long and Bool copies, conversions, in either dim order.
    x = np.arange(120, dtype=np.int64).reshape(2, 3, 4, 5) - 60
    for order in (None, LAST):
        for dtype in (np.int64, np.float32, np.bool_):
            args = [In(x, order), False, IntList(order or (0, 1, 2, 3)), Out(dtype, x.shape, order)]
            (out,) = assert_matches(optimized, kernel, OP, args)
            np.testing.assert_array_equal(out, x.astype(dtype))


def test_to_dim_order_copy_errors_are_portables(
    optimized: KernelRunner, kernel: KernelRunner
) -> None:
    x = random((2, 3, 4, 5), 4)
    args = [In(x), False, IntList(LAST), Out(np.float32, x.shape)]
    assert_both_fail(optimized, kernel, OP, args, "")
    assert_both_fail(optimized, kernel, OP, [In(x), False, None, Out(np.float32, (2, 3))], "")
