from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

SHUFFLE = "aten::pixel_shuffle.out"
UNSHUFFLE = "aten::pixel_unshuffle.out"


def shuffle(x: np.ndarray, r: int) -> np.ndarray:
    *batch, c, h, w = x.shape
    y = x.reshape(*batch, c // (r * r), r, r, h, w)
    n = len(batch)
    order = [*range(n), n, n + 3, n + 1, n + 4, n + 2]
    return np.ascontiguousarray(y.transpose(order).reshape(*batch, c // (r * r), h * r, w * r))


def unshuffle(x: np.ndarray, r: int) -> np.ndarray:
    *batch, c, h, w = x.shape
    y = x.reshape(*batch, c, h // r, r, w // r, r)
    n = len(batch)
    order = [*range(n), n, n + 2, n + 4, n + 1, n + 3]
    return np.ascontiguousarray(y.transpose(order).reshape(*batch, c * r * r, h // r, w // r))


@pytest.mark.parametrize("dtype", ALL)
def test_pixel_shuffle_and_unshuffle_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(48).reshape(1, 8, 2, 3) % 7).astype(dtype)
    (out,) = kernel.run(SHUFFLE, [In(x), 2, Out(dtype, (1, 2, 4, 6))])
    np.testing.assert_array_equal(out, shuffle(x, 2))
    (back,) = kernel.run(UNSHUFFLE, [In(out), 2, Out(dtype, x.shape)])
    np.testing.assert_array_equal(back, x)


def test_pixel_shuffle_3_dims_batches_and_layouts(kernel: KernelRunner) -> None:
    x = np.arange(36, dtype=np.float32).reshape(9, 2, 2)
    (out,) = kernel.run(SHUFFLE, [In(x), 3, Out(np.float32, (1, 6, 6))])
    np.testing.assert_array_equal(out, shuffle(x, 3))
    y = np.arange(2 * 3 * 2 * 4 * 6, dtype=np.float32).reshape(2, 3, 2, 4, 6)
    (out,) = kernel.run(UNSHUFFLE, [In(y, (0, 1, 3, 4, 2)), 2, Out(np.float32, (2, 3, 8, 2, 3))])
    np.testing.assert_array_equal(out, unshuffle(y, 2))


def test_pixel_shuffle_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 6, 2, 2), np.float32)
    assert_fails(
        kernel,
        SHUFFLE,
        [In(x), 2, Out(np.float32, (1, 1, 4, 4))],
        "divisible by upscale_factor squared",
    )
    assert_fails(kernel, SHUFFLE, [In(x), 0, Out(np.float32, x.shape)], "factor must be positive")
    assert_fails(
        kernel,
        SHUFFLE,
        [In(np.ones((4, 2), np.float32)), 2, Out(np.float32, (1, 4, 2))],
        "at least 3 dims",
    )
    assert_fails(
        kernel,
        UNSHUFFLE,
        [In(np.ones((1, 1, 3, 4), np.float32)), 2, Out(np.float32, (1, 4, 1, 2))],
        "divisible",
    )
