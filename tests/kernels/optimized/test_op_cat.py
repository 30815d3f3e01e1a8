from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import InList, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "aten::cat.out"


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_cat_matches_portable_and_numpy(
    optimized: KernelRunner, kernel: KernelRunner, dim: int
) -> None:
    shapes = [(2, 3, 5), (2, 3, 5), (2, 3, 5)]
    parts = [random(shape, i) for i, shape in enumerate(shapes)]
    parts[1] = np.concatenate([parts[1], parts[1]], axis=dim)  # parts of unequal length
    expected = np.concatenate(parts, axis=dim)
    args = [InList(tuple(parts)), dim, Out(np.float32, expected.shape)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, expected)


def test_cat_rope_halves_empty_and_skipped(optimized: KernelRunner, kernel: KernelRunner) -> None:
    a, b = random((1, 8, 4, 16), 1), random((1, 8, 4, 16), 2)
    assert_matches(optimized, kernel, OP, [InList((a, b)), -1, Out(np.float32, (1, 8, 4, 32))])
    empty = np.zeros((1, 8, 4, 0), np.float32)
    assert_matches(optimized, kernel, OP, [InList((a, empty)), 3, Out(np.float32, a.shape)])
    skipped = np.zeros((0,), np.float32)  # torch skips 1-dim empty tensors
    assert_matches(optimized, kernel, OP, [InList((skipped, a)), 0, Out(np.float32, a.shape)])


def test_cat_strided_out(optimized: KernelRunner, kernel: KernelRunner) -> None:
    # A channels-last out: portable's strided placing.
    x = random((2, 3, 4, 5), 1)
    args = [InList((x, x)), 1, Out(np.float32, (2, 6, 4, 5), (0, 2, 3, 1))]
    assert_matches(optimized, kernel, OP, args)


def test_cat_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    a, b = random((2, 3), 1), random((3, 3), 2)
    args = [InList((a, b)), 1, Out(np.float32, (2, 6))]
    assert_both_fail(optimized, kernel, OP, args, "same shape except in dim")
    assert_both_fail(optimized, kernel, OP, [InList((a,)), 2, Out(np.float32, (2, 3))], "")


def test_cat_channels_last_runs_per_pixel(optimized: KernelRunner, kernel: KernelRunner) -> None:
    # Channels-last parts and out along the channels: each part's run of channels per pixel
    # (a Fire module's expands); parts of 3, 17 and 0 channels, two images.
    last = (0, 2, 3, 1)
    parts = (random((2, 3, 4, 5), 1), random((2, 17, 4, 5), 2), np.zeros((2, 0, 4, 5), np.float32))
    expected = np.concatenate(parts, axis=1)
    args = [InList(parts, last), 1, Out(np.float32, expected.shape, last)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, expected)
    # Along the rows: portable's strided placing.
    rows = (parts[0], random((2, 3, 2, 5), 3))
    args = [InList(rows, last), 2, Out(np.float32, (2, 3, 6, 5), last)]
    (out,) = assert_matches(optimized, kernel, OP, args)
    np.testing.assert_array_equal(out, np.concatenate(rows, axis=2))
