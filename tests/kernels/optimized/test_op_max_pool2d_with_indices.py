"""optimized::max_pool2d_with_indices_out against portable's (values and indices): odd
sizes, stride, padding, dilation, ceil_mode, ties, NaN, -inf windows, 3-D input,
channels-last (the strided rows, and Note [Max pool over channels])."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.optimized.compare import assert_matches
from tests.kernels.optimized.conftest import Both
from tests.kernels.optimized.pool_calls import random_input
from tests.kernels.pool_cases import pooled_size

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::max_pool2d_with_indices.out"


def _pool(
    both: Both | tuple[KernelRunner, KernelRunner],
    x: np.ndarray,
    k: int,
    s: int,
    p: int,
    d: int = 1,
    ceil: bool = False,
    order: tuple[int, ...] | None = None,
) -> list[np.ndarray]:
    h, w = x.shape[-2:]
    shape = (*x.shape[:-2], pooled_size(h, k, s, p, ceil, d), pooled_size(w, k, s, p, ceil, d))
    args = [In(x, order), IntList((k, k)), IntList((s, s)), IntList((p, p)), IntList((d, d)), ceil]
    args += [Out(x.dtype.type, shape, order), Out(np.int64, shape, order)]
    if isinstance(both, Both):
        return both.compare(OP, args)
    return assert_matches(*both, OP, args)


@pytest.mark.parametrize(
    ("k", "s", "p", "d", "ceil"),
    [
        (3, 2, 1, 1, False),
        (2, 2, 0, 1, False),
        (3, 1, 1, 1, False),
        (3, 2, 1, 2, False),
        (3, 2, 0, 1, True),
    ],
)
def test_windows(both: Both, k: int, s: int, p: int, d: int, ceil: bool) -> None:
    _pool(both, random_input((2, 3, 13, 11), seed=k + s + p), k, s, p, d, ceil)


@pytest.mark.parametrize("width", [17, 18, 19, 40, 71])
def test_wide_rows_in_vector_blocks(both: Both, width: int) -> None:
    # Rows of 8 to 71 outputs: the blocks of 16 outputs (AVX-512) and of 8 at column stride 1
    # and 2, the last block overlapping, and the scalar tail; ties (halves, and zeros of both
    # signs, where the first wins), NaN and -inf inside, and whole windows of -inf.
    x = random_input((2, 3, 7, width), seed=width)
    x[0, 0, 2, ::3] = np.nan
    x[0, 1, :, : width // 2] = -np.inf
    x[1, 2, 3, 5:9] = 0.5
    x[1, 1, 2:5, ::2] = -0.0
    x[1, 1, 2:5, 1::2] = 0.0
    for k, s, p, d in [(3, 2, 1, 1), (2, 2, 0, 1), (3, 1, 1, 1), (3, 2, 1, 2), (2, 1, 0, 1)]:
        _pool(both, x, k, s, p, d)


def test_three_d_input_and_channels_last(both: Both) -> None:
    _pool(both, random_input((4, 9, 7), seed=1), 3, 2, 1)
    _pool(both, random_input((1, 3, 9, 8), seed=2), 3, 2, 1, order=(0, 2, 3, 1))


@pytest.mark.parametrize("channels", [8, 16, 40])
def test_channels_last_a_vector_of_channels_at_once(both: Both, channels: int) -> None:
    # Note [Max pool over channels]: 8 channels (a vector with AVX2, fewer than one with
    # AVX-512: the plane loops), 16, and 40 (a last vector overlapping the one before), with
    # ties, zeros of both signs, NaN and -inf; indices h * W + w of each plane.
    x = random_input((2, channels, 9, 11), seed=channels)
    x[0, 3, 2, ::3] = np.nan
    x[1, 5, :, :4] = -np.inf
    x[1, 1, 2:5, ::2] = -0.0
    x[1, 1, 2:5, 1::2] = 0.0
    for k, s, p, d, ceil in [(3, 2, 0, 1, True), (3, 2, 1, 1, False), (2, 1, 1, 2, True)]:
        _pool(both, x, k, s, p, d, ceil, order=(0, 2, 3, 1))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float16, np.float64])
def test_every_real_dtype(optimized: KernelRunner, kernel: KernelRunner, dtype: type) -> None:
    # The optimized kernel alone (no portable behind it) against portable: every dtype a call
    # may carry, as its entry declares them all (the indices are Long).
    x = (random_input((2, 3, 9, 10), seed=7) * 8).astype(dtype)
    _pool((optimized, kernel), x, 3, 2, 1)
    _pool((optimized, kernel), x, 2, 1, 0, d=2, ceil=True)


def test_nan_and_minus_infinity(both: Both) -> None:
    x = np.full((1, 1, 5, 5), -np.inf, np.float32)
    x[0, 0, 1, 1] = np.nan
    x[0, 0, 3, 3] = np.nan
    values, indices = _pool(both, x, 3, 2, 1)
    assert np.isnan(values[0, 0, 1, 1]) and indices[0, 0, 1, 1] == 3 * 5 + 3  # the last NaN
    assert values[0, 0, 0, 2] == -np.inf and indices[0, 0, 0, 2] == 3  # the window's first


def test_bad_call_fails_in_one_line(both: Both) -> None:
    x = np.zeros((1, 1, 4, 4), np.float32)
    args = [In(x), IntList((2, 2)), IntList((2, 2)), IntList((2, 2)), IntList((1, 1)), False]
    args += [Out(np.float32, (1, 1, 4, 4)), Out(np.int64, (1, 1, 4, 4))]
    assert_fails(both.optimized, OP, args, "padding must be at most half the kernel size")
