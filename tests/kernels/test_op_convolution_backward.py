from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import BoolList, IntList
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::convolution_backward.out"


def _reference(
    dy: np.ndarray,
    x: np.ndarray,
    w: np.ndarray,
    stride: int,
    padding: int,
    dilation: int,
    groups: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three gradients by scattering every product of the forward convolution."""
    dy, x, w = (a.astype(np.float64) for a in (dy, x, w))
    gx, gw = np.zeros_like(x), np.zeros_like(w)
    icpg, ocpg = x.shape[1] // groups, w.shape[0] // groups
    for b, o, h, q in np.ndindex(*dy.shape):
        for i, kh, kw in np.ndindex(icpg, w.shape[2], w.shape[3]):
            c = (o // ocpg) * icpg + i
            ih, iw = h * stride - padding + kh * dilation, q * stride - padding + kw * dilation
            if 0 <= ih < x.shape[2] and 0 <= iw < x.shape[3]:
                gx[b, c, ih, iw] += dy[b, o, h, q] * w[o, i, kh, kw]
                gw[o, i, kh, kw] += dy[b, o, h, q] * x[b, c, ih, iw]
    return gx, gw, dy.sum(axis=(0, 2, 3))


def _args(
    dy: np.ndarray,
    x: np.ndarray,
    w: np.ndarray,
    stride: int,
    padding: int,
    dilation: int,
    groups: int,
) -> list[object]:
    outs = [Out(x.dtype, x.shape), Out(x.dtype, w.shape), Out(x.dtype, (w.shape[0],))]
    return [In(dy), In(x), In(w), IntList((w.shape[0],)), IntList((stride,) * 2)] + [
        IntList((padding,) * 2),
        IntList((dilation,) * 2),
        False,
        IntList((0, 0)),
        groups,
        BoolList((True, True, True)),
        *outs,
    ]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize(
    ("stride", "padding", "dilation", "groups"), [(1, 0, 1, 1), (2, 1, 1, 2), (1, 2, 2, 1)]
)
def test_gradients_match_reference(
    kernel: KernelRunner, dtype: type, stride: int, padding: int, dilation: int, groups: int
) -> None:
    rng = np.random.default_rng(140)
    x = rng.standard_normal((2, 4, 5, 6)).astype(dtype)
    w = rng.standard_normal((6, 4 // groups, 3, 2)).astype(dtype)
    out_h = (5 + 2 * padding - dilation * 2 - 1) // stride + 1
    out_w = (6 + 2 * padding - dilation * 1 - 1) // stride + 1
    dy = rng.standard_normal((2, 6, out_h, out_w)).astype(dtype)
    got = kernel.run(OP, _args(dy, x, w, stride, padding, dilation, groups))
    tol = 2e-2 if dtype == np.float16 else 1e-5
    for actual, expected in zip(
        got, _reference(dy, x, w, stride, padding, dilation, groups), strict=True
    ):
        np.testing.assert_allclose(actual.astype(np.float64), expected, rtol=tol, atol=tol)


def test_masked_gradient_is_left_alone_and_dim_orders(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(141)
    x = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
    w = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    dy = rng.standard_normal((1, 3, 3, 3)).astype(np.float32)
    args = _args(dy, x, w, 1, 0, 1, 1)
    args[1] = In(x, dim_order=(0, 2, 3, 1))
    args[3] = None  # no bias_sizes
    args[10] = BoolList((True, False, True))
    args[12] = Out(np.float32, (0,))  # what a program without that gradient may pass
    gx, gw, gb = kernel.run(OP, args)
    expected = _reference(dy, x, w, 1, 0, 1, 1)
    np.testing.assert_allclose(gx, expected[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gb, expected[2], rtol=1e-5, atol=1e-5)
    assert gw.shape == (0,)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 2, 4, 4), np.float32)
    w = np.ones((3, 2, 2, 2), np.float32)
    dy = np.ones((1, 3, 3, 3), np.float32)
    ok = _args(dy, x, w, 1, 0, 1, 1)
    for index, value, text in (
        (7, True, "transposed"),
        (10, BoolList((True, True)), "3 entries"),
        (9, 2, "groups must divide"),
        (0, In(np.ones((1, 3, 2, 2), np.float32)), "output shape"),
        (2, In(np.ones((3, 2, 2), np.float32)), "2-d convolution"),
        (2, In(w.astype(np.float64)), "input's dtype"),
        (3, IntList((2,)), "bias_sizes"),
        (4, IntList((0, 1)), "positive"),
        (11, Out(np.float32, (1, 2, 4, 5)), "wrong shape"),
        (13, Out(np.float64, (3,)), "input's dtype"),
    ):
        args = list(ok)
        args[index] = value
        assert_fails(kernel, OP, args, text)
    i32 = [In(a.astype(np.int32)) for a in (dy, x, w)]
    outs = [Out(np.int32, x.shape), Out(np.int32, w.shape), Out(np.int32, (3,))]
    assert_fails(kernel, OP, i32 + ok[3:11] + outs, "Int")
