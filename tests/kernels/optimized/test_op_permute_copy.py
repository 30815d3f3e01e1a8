from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "aten::permute_copy.out"

# (self shape, dims): transposes around the 16 x 16 tile, attention's head moves, rows
# copied whole, size-1 dims, reversals and identities.
CASES = [
    ((17, 33), (1, 0)),
    ((64, 48), (1, 0)),
    ((1, 31, 1, 5), (3, 2, 1, 0)),
    ((2, 3, 20), (0, 2, 1)),
    ((2, 4, 8, 16), (0, 2, 1, 3)),  # [B, H, T, D] -> [B, T, H, D]: rows of D
    ((2, 4, 8, 16), (0, 1, 3, 2)),  # K transposed for Q @ K^T
    ((3, 4, 5, 6), (3, 1, 2, 0)),
    ((3, 4, 5), (-1, -3, -2)),
    ((3, 4, 5), (0, 1, 2)),
    ((7,), (0,)),
    ((), ()),
    ((0, 5), (1, 0)),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_permute_matches_portable_and_numpy(
    optimized: KernelRunner, kernel: KernelRunner, case: tuple
) -> None:
    shape, dims = case
    x = random(shape, sum(shape) + 1)
    expected = np.transpose(x, dims) if dims else x
    args = [In(x), IntList(dims), Out(np.float32, expected.shape)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, expected)


def test_permute_other_layouts(optimized: KernelRunner, kernel: KernelRunner) -> None:
    # A channels-last self (no dim read at stride 1 after the permute: element by
    # element) and a channels-last out (portable's strided copy).
    x = random((2, 3, 4, 5), 1)
    last = (0, 2, 3, 1)
    args = [In(x, last), IntList((0, 3, 1, 2)), Out(np.float32, (2, 5, 3, 4))]
    assert_matches(optimized, kernel, OP, args)
    args = [In(x, last), IntList((1, 0, 2, 3)), Out(np.float32, (3, 2, 4, 5))]
    assert_matches(optimized, kernel, OP, args)
    args = [In(x), IntList((0, 1, 3, 2)), Out(np.float32, (2, 3, 5, 4), last)]
    assert_matches(optimized, kernel, OP, args)


def test_permute_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 2)
    for dims in [(0, 0), (0,), (0, 2)]:
        args = [In(x), IntList(dims), Out(np.float32, (3, 2))]
        assert_both_fail(optimized, kernel, OP, args, "dims must name every dim")
    assert_both_fail(optimized, kernel, OP, [In(x), IntList((1, 0)), Out(np.float32, (2, 3))], "")
