from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "dim_order_ops::_clone_dim_order.out"
# The same copies through _to_dim_order_copy, which the optimized library takes with the
# same code (elem/dim_order_copy.h); its conversions are test_op__to_dim_order_copy.py's.
OPS = (OP, "dim_order_ops::_to_dim_order_copy.out")
LAST = (0, 2, 3, 1)


@pytest.mark.parametrize("op", OPS)
def test_clone_same_layout(op: str, optimized: KernelRunner, kernel: KernelRunner) -> None:
    for shape in [(17,), (2, 3, 4, 5), (), (0, 3)]:
        x = random(shape, 1)
        (out,) = assert_matches(optimized, kernel, op, [In(x), False, None, Out(np.float32, shape)])
        np.testing.assert_array_equal(out, x)
    x = random((2, 3, 4, 5), 2)
    args = [In(x, LAST), False, IntList(LAST), Out(np.float32, x.shape, LAST)]
    assert_matches(optimized, kernel, op, args)


@pytest.mark.parametrize("op", OPS)
def test_clone_changes_dim_order(op: str, optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3, 4, 5), 3)
    args = [In(x), False, IntList(LAST), Out(np.float32, x.shape, LAST)]
    assert_matches(optimized, kernel, op, args)
    args = [In(x, LAST), False, IntList((0, 1, 2, 3)), Out(np.float32, x.shape)]
    assert_matches(optimized, kernel, op, args)


@pytest.mark.parametrize("op", OPS)
def test_clone_between_contiguous_and_channels_last_in_tiles(
    op: str, optimized: KernelRunner, kernel: KernelRunner
) -> None:
    # A transpose per image in 16 x 16 tiles with tails (40 channels, 99 pixels), both ways.
    x = random((2, 40, 9, 11), 5)
    for before, after in [(None, LAST), (LAST, (0, 1, 2, 3))]:
        args = [In(x, before), False, IntList(after), Out(np.float32, x.shape, after)]
        (out,) = assert_matches(optimized, kernel, op, args)
        np.testing.assert_array_equal(out, x)


@pytest.mark.parametrize("op", OPS)
def test_clone_errors_are_portables(op: str, optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3, 4, 5), 4)
    args = [In(x), False, IntList(LAST), Out(np.float32, x.shape)]
    assert_both_fail(optimized, kernel, op, args, "")
    assert_both_fail(optimized, kernel, op, [In(x), False, None, Out(np.float32, (2, 3))], "")
