from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "aten::embedding.out"


@pytest.mark.parametrize("index_dtype", [np.int64, np.int32])
@pytest.mark.parametrize("width", [1, 7, 64])
def test_embedding_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, index_dtype: type, width: int
) -> None:
    weight = random((11, width), width)
    indices = np.array([[0, 10, 3, 3], [9, 5, 0, 2]], dtype=index_dtype)
    args = [In(weight), In(indices), -1, False, False, Out(np.float32, (2, 4, width))]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, weight[indices])


def test_embedding_other_dtypes_and_layouts(optimized: KernelRunner, kernel: KernelRunner) -> None:
    ids = np.arange(24, dtype=np.int64).reshape(4, 6)  # an int64 table: rows move as bytes
    indices = np.array([3, 0, 3], dtype=np.int64)
    args = [In(ids), In(indices), -1, False, False, Out(np.int64, (3, 6))]
    assert_matches(optimized, kernel, OP, args)
    weight = random((5, 8), 1)  # weight stored transposed: portable's strided rows
    args = [In(weight, (1, 0)), In(indices % 5), -1, False, False, Out(np.float32, (3, 8))]
    assert_matches(optimized, kernel, OP, args)
    args = [In(weight), In(np.zeros((0,), np.int64)), -1, False, False, Out(np.float32, (0, 8))]
    assert_matches(optimized, kernel, OP, args)


def test_embedding_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    weight = random((5, 8), 1)
    bad = np.array([5], dtype=np.int64)
    args = [In(weight), In(bad), -1, False, False, Out(np.float32, (1, 8))]
    assert_both_fail(optimized, kernel, OP, args, "out of range")
    args = [In(weight), In(np.array([1.0], np.float32)), -1, False, False, Out(np.float32, (1, 8))]
    assert_both_fail(optimized, kernel, OP, args, "")
