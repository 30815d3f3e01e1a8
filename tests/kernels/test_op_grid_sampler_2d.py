from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::grid_sampler_2d.out"
MODES = (0, 1, 2)  # bilinear, nearest, bicubic
PADDINGS = (0, 1, 2)  # zeros, border, reflection


def _pixel_grid(n: int, h: int, w: int, dtype: type) -> np.ndarray:
    """The grid of every pixel centre with align_corners=True: sampling it is the identity."""
    ys, xs = np.meshgrid(np.linspace(-1, 1, h), np.linspace(-1, 1, w), indexing="ij")
    return np.broadcast_to(np.stack([xs, ys], axis=-1), (n, h, w, 2)).astype(dtype)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("padding", PADDINGS)
def test_pixel_centres_give_the_input(
    kernel: KernelRunner, dtype: type, mode: int, padding: int
) -> None:
    x = np.random.default_rng(100).standard_normal((2, 3, 4, 5)).astype(dtype)
    grid = _pixel_grid(2, 4, 5, dtype)
    (out,) = kernel.run(OP, [In(x), In(grid), mode, padding, True, Out(dtype, x.shape)])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), x.astype(np.float64), rtol=tol, atol=tol)


def test_outside_and_non_finite_coordinates(kernel: KernelRunner) -> None:
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)
    # Far outside, NaN and infinite coordinates must neither crash nor read outside.
    points = [[5.0, 5.0], [-7.0, 0.0], [np.nan, 0.0], [np.inf, -np.inf], [1e30, -1e30]]
    grid = np.array([[points]], np.float32)
    for mode in MODES:
        (out,) = kernel.run(OP, [In(x), In(grid), mode, 0, False, Out(np.float32, (1, 1, 1, 5))])
        assert out[0, 0, 0, 0] == 0 and out[0, 0, 0, 1] == 0  # zeros padding
        (out,) = kernel.run(OP, [In(x), In(grid), mode, 1, False, Out(np.float32, (1, 1, 1, 5))])
        assert out[0, 0, 0, 0] == pytest.approx(12.0)  # the bottom-right border pixel
        (out,) = kernel.run(OP, [In(x), In(grid), mode, 2, False, Out(np.float32, (1, 1, 1, 5))])
        assert np.isfinite(out[0, 0, 0, :2]).all()  # reflected back inside


def test_strided_input_and_empty_grid(kernel: KernelRunner) -> None:
    x = np.random.default_rng(101).standard_normal((1, 2, 3, 3)).astype(np.float32)
    grid = _pixel_grid(1, 3, 3, np.float32)
    args = [In(x, dim_order=(0, 2, 3, 1)), In(grid), 0, 0, True, Out(np.float32, x.shape)]
    (out,) = kernel.run(OP, args)
    np.testing.assert_allclose(out, x, rtol=1e-5, atol=1e-6)
    empty = np.zeros((1, 0, 3, 2), np.float32)
    (out,) = kernel.run(OP, [In(x), In(empty), 0, 0, True, Out(np.float32, (1, 2, 0, 3))])
    assert out.shape == (1, 2, 0, 3)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 2, 3, 3), np.float32)
    grid = np.zeros((1, 2, 2, 2), np.float32)
    out = Out(np.float32, (1, 2, 2, 2))
    for args, text in (
        ([In(x), In(grid), 3, 0, False, out], "interpolation_mode"),
        ([In(x), In(grid), 0, -1, False, out], "padding_mode"),
        ([In(x[0]), In(grid), 0, 0, False, out], "4 dims"),
        ([In(x), In(np.zeros((1, 2, 2, 3), np.float32)), 0, 0, False, out], "grid must have"),
        ([In(x), In(np.zeros((2, 2, 2, 2), np.float32)), 0, 0, False, out], "grid must have"),
        ([In(x), In(grid.astype(np.float64)), 0, 0, False, out], "input's dtype"),
        ([In(x), In(grid), 0, 0, False, Out(np.float32, (1, 2, 3, 3))], "wrong shape"),
        ([In(x.astype(np.int32)), In(grid.astype(np.int32)), 0, 0, False, out], "Int"),
    ):
        assert_fails(kernel, OP, args, text)
