from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random
from tests.kernels.optimized.conftest import Runners
from tests.kernels.optimized.reduce_cases import calls

OP = "aten::mean.out"


@pytest.mark.parametrize("args", calls())
def test_mean_matches_portable(optimized: KernelRunner, kernel: KernelRunner, args: list) -> None:
    assert_matches(optimized, kernel, OP, args)


def test_mean_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 3)
    args = [In(x), IntList((2,)), False, None, Out(np.float32, (2,))]
    assert_both_fail(optimized, kernel, OP, args, "")
    args = [In(x), IntList((1, 1)), False, None, Out(np.float32, (2,))]
    assert_both_fail(optimized, kernel, OP, args, "")
    args = [In(x), IntList((1,)), False, None, Out(np.float32, (3,))]
    assert_both_fail(optimized, kernel, OP, args, "")


@pytest.mark.parametrize("shape", [(4, 960, 7, 7), (2, 3, 9000)], ids=str)
def test_mean_split_over_threads_gives_the_same_bits(runners: Runners, shape: tuple) -> None:
    """Rows enough to split (Note [Split elementwise]): an EfficientNet squeeze's pooled
    planes and a few long rows."""
    dims = IntList((2, 3)) if len(shape) == 4 else IntList((2,))
    out = Out(np.float32, shape[:2] + (1,) * (len(shape) - 2))
    runners.close(OP, [In(random(shape, 7)), dims, True, None, out], shape[-1] * shape[-2])


def test_one_images_squeeze_split_over_threads_gives_the_same_bits(runners: Runners) -> None:
    """An EfficientNet-B0 squeeze of one image, channels last: the threads split its channels
    (blocks of four vectors, the last one partial), each channel's sum in the same order."""
    x = In(random((1, 148, 28, 28), 9), (0, 2, 3, 1))
    out = Out(np.float32, (1, 148, 1, 1), (0, 2, 3, 1))
    runners.close(OP, [x, IntList((2, 3)), True, None, out], 28 * 28)


@pytest.mark.parametrize("keepdim", [True, False])
@pytest.mark.parametrize("channels", [3, 70])
def test_mean_over_pixels_of_channels_last(
    optimized: KernelRunner, kernel: KernelRunner, keepdim: bool, channels: int
) -> None:
    # Note [Sums over pixels]: an SE block's squeeze, out [N, C, 1, 1] in either dim order
    # or [N, C].
    x = In(random((2, channels, 7, 9), 5), (0, 2, 3, 1))
    orders = [None, (0, 2, 3, 1)] if keepdim else [None]
    for order in orders:
        shape = (2, channels, 1, 1) if keepdim else (2, channels)
        out = Out(np.float32, shape, order)
        assert_matches(optimized, kernel, OP, [x, IntList((2, 3)), keepdim, None, out])
        assert_matches(optimized, kernel, OP, [x, IntList((-1, -2)), keepdim, None, out])
