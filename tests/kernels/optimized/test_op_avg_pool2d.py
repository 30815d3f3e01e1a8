"""optimized::avg_pool2d_out against portable's: odd sizes, stride 1 (the dense run) and 2,
padding counted or not, ceil_mode, divisor_override, 3-D input, channels-last."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Both
from tests.kernels.optimized.pool_calls import random_input
from tests.kernels.pool_cases import pooled_size

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::avg_pool2d.out"


def _pool(
    both: Both,
    x: np.ndarray,
    k: tuple[int, int],
    s: int,
    p: int,
    *,
    ceil: bool = False,
    include_pad: bool = True,
    divisor: int | None = None,
    order: tuple[int, ...] | None = None,
) -> None:
    h, w = x.shape[-2:]
    shape = (*x.shape[:-2], pooled_size(h, k[0], s, p, ceil), pooled_size(w, k[1], s, p, ceil))
    args = [In(x, order), IntList(k), IntList((s, s)), IntList((p, p)), ceil, include_pad, divisor]
    args += [Out(np.float32, shape, order)]
    both.compare(OP, args)


@pytest.mark.parametrize(
    ("k", "s", "p"), [((3, 3), 1, 1), ((3, 2), 2, 1), ((2, 2), 2, 0), ((5, 5), 3, 2)]
)
@pytest.mark.parametrize("include_pad", [True, False])
@pytest.mark.parametrize("ceil", [True, False])
def test_windows(
    both: Both, k: tuple[int, int], s: int, p: int, include_pad: bool, ceil: bool
) -> None:
    x = random_input((2, 3, 13, 11), seed=s + p)
    _pool(both, x, k, s, p, ceil=ceil, include_pad=include_pad)


def test_divisor_override_three_d_and_channels_last(both: Both) -> None:
    _pool(both, random_input((2, 3, 9, 10), seed=3), (3, 3), 2, 1, divisor=5)
    _pool(both, random_input((3, 7, 9), seed=4), (2, 3), 1, 1)
    _pool(both, random_input((1, 4, 7, 6), seed=5), (3, 3), 2, 1, order=(0, 2, 3, 1))


@pytest.mark.parametrize("channels", [2, 9, 70])
def test_channels_last_a_vector_of_channels_per_pixel(both: Both, channels: int) -> None:
    # Note [Sums over pixels]: fewer channels than a vector, blocks of four and a tail;
    # padding counted or not, ceil_mode, a divisor.
    x = random_input((2, channels, 9, 10), seed=channels)
    last = (0, 2, 3, 1)
    _pool(both, x, (3, 3), 2, 1, order=last)
    _pool(both, x, (3, 2), 2, 1, ceil=True, include_pad=False, order=last)
    _pool(both, x, (2, 2), 1, 0, divisor=3, order=last)


def test_large_values(both: Both) -> None:
    _pool(both, random_input((1, 2, 8, 8), seed=6, scale=1e30), (3, 3), 1, 1)


def test_zero_divisor_fails_in_one_line(both: Both) -> None:
    x = np.zeros((1, 1, 4, 4), np.float32)
    args = [In(x), IntList((2, 2)), IntList((2, 2)), IntList((0, 0)), False, True, 0]
    args += [Out(np.float32, (1, 1, 2, 2))]
    assert_fails(both.optimized, OP, args, "divisor_override must not be zero")
