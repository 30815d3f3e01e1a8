"""optimized::_adaptive_avg_pool2d_out against portable's: bins that overlap (sizes that do
not divide), a global pool, upsampling bins, 3-D input and channels-last."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Both
from tests.kernels.optimized.pool_calls import random_input

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::_adaptive_avg_pool2d.out"


def _pool(
    both: Both, x: np.ndarray, size: tuple[int, int], order: tuple[int, ...] | None = None
) -> None:
    shape = (*x.shape[:-2], *size)
    both.compare(OP, [In(x, order), IntList(size), Out(np.float32, shape, order)])


@pytest.mark.parametrize("size", [(1, 1), (3, 4), (5, 7), (13, 11), (20, 3)])
def test_bins(both: Both, size: tuple[int, int]) -> None:
    _pool(both, random_input((2, 3, 13, 11), seed=size[0]), size)


def test_three_d_and_channels_last(both: Both) -> None:
    _pool(both, random_input((4, 9, 7), seed=1), (2, 3))
    _pool(both, random_input((1, 5, 8, 6), seed=2), (3, 2), order=(0, 2, 3, 1))


@pytest.mark.parametrize("size", [(1, 1), (3, 4), (5, 7)])
def test_channels_last_a_vector_of_channels_per_pixel(both: Both, size: tuple[int, int]) -> None:
    # Note [Sums over pixels]: 70 channels (blocks of four vectors and a tail), a global
    # pool (MobileNetV2's and EfficientNet-B0's head) and overlapping bins.
    _pool(both, random_input((2, 70, 9, 11), seed=size[1]), size, order=(0, 2, 3, 1))


def test_bad_output_size_fails_in_one_line(both: Both) -> None:
    x = np.zeros((1, 1, 4, 4), np.float32)
    args = [In(x), IntList((2,)), Out(np.float32, (1, 1, 2, 2))]
    assert_fails(both.optimized, OP, args, "output_size must be two sizes")
