from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import (
    FLOATING,
    INTEGER,
    In,
    KernelRunner,
    Out,
    assert_fails,
)

OP = "aten::convolution.out"


def _conv2d(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None,
    stride: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
    groups: int,
) -> np.ndarray:
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    n, c, h, wd = x.shape
    oc, icg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    y = np.zeros((n, oc, oh, ow))
    ocg = oc // groups
    for o in range(oc):
        g = o // ocg
        for i in range(oh):
            for j in range(ow):
                hs = i * stride[0]
                ws = j * stride[1]
                patch = x[
                    :,
                    g * icg : (g + 1) * icg,
                    hs : hs + dilation[0] * (kh - 1) + 1 : dilation[0],
                    ws : ws + dilation[1] * (kw - 1) + 1 : dilation[1],
                ]
                y[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3))
        if b is not None:
            y[:, o] += b[o]
    return y


def _run(
    kernel: KernelRunner,
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None,
    stride: tuple[int, ...],
    padding: tuple[int, ...],
    dilation: tuple[int, ...],
    groups: int,
    out_shape: tuple[int, ...],
) -> np.ndarray:
    args = [In(x), In(w), In(b) if b is not None else None, IntList(stride), IntList(padding)]
    args += [IntList(dilation), False, IntList((0,) * len(stride)), groups, Out(x.dtype, out_shape)]
    (out,) = kernel.run(OP, args)
    return out


@pytest.mark.parametrize("dtype", FLOATING)
def test_conv2d_basic(kernel: KernelRunner, dtype: type) -> None:
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 3, 6, 5)).astype(dtype)
    w = rng.standard_normal((4, 3, 3, 2)).astype(dtype)
    b = rng.standard_normal(4).astype(dtype)
    out = _run(kernel, x, w, b, (1, 1), (0, 0), (1, 1), 1, (2, 4, 4, 4))
    tol = 2e-2 if dtype == np.float16 else 1e-5
    expected = _conv2d(x, w, b, (1, 1), (0, 0), (1, 1), 1)
    np.testing.assert_allclose(out.astype(np.float64), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", INTEGER)
def test_conv2d_integers_wrap_like_torch(kernel: KernelRunner, dtype: type) -> None:
    rng = np.random.default_rng(12)
    x = rng.integers(0, 60, (1, 3, 5, 5)).astype(dtype)
    w = rng.integers(0, 60, (2, 3, 3, 3)).astype(dtype)
    b = rng.integers(0, 60, 2).astype(dtype)
    out = _run(kernel, x, w, b, (1, 1), (1, 1), (1, 1), 1, (1, 2, 5, 5))
    wide = _conv2d(x, w.astype(np.float64), b, (1, 1), (1, 1), (1, 1), 1).astype(np.int64)
    np.testing.assert_array_equal(out, wide.astype(dtype))  # modulo 2**bits, as torch


def test_conv2d_stride_padding_dilation_groups(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 4, 7, 8)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 3)).astype(np.float32)
    expected = _conv2d(x, w, None, (2, 1), (1, 2), (1, 2), 2)
    out = _run(kernel, x, w, None, (2, 1), (1, 2), (1, 2), 2, expected.shape)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    # One entry serves both dims.
    expected = _conv2d(x, w, None, (2, 2), (1, 1), (1, 1), 2)
    out = _run(kernel, x, w, None, (2,), (1,), (1,), 2, expected.shape)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_conv2d_channels_last_input(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(8)
    x = rng.standard_normal((1, 3, 5, 5)).astype(np.float32)
    w = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    args = [In(x, dim_order=(0, 2, 3, 1)), In(w), None, IntList((1, 1)), IntList((1, 1))]
    args += [IntList((1, 1)), False, IntList((0, 0)), 1, Out(np.float32, (1, 2, 5, 5))]
    (out,) = kernel.run(OP, args)
    expected = _conv2d(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_conv1d(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 4, 9)).astype(np.float64)
    w = rng.standard_normal((2, 2, 3)).astype(np.float64)
    b = np.array([0.5, -1.0])
    expected = _conv2d(x[:, :, None], w[:, :, None], b, (1, 2), (0, 1), (1, 2), 2)[:, :, 0]
    out = _run(kernel, x, w, b, (2,), (1,), (2,), 2, expected.shape)
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_conv_nan_and_empty_batch(kernel: KernelRunner) -> None:
    x = np.zeros((1, 1, 3, 3), np.float32)
    x[0, 0, 0, 0] = np.nan
    w = np.ones((1, 1, 2, 2), np.float32)
    out = _run(kernel, x, w, None, (1, 1), (0, 0), (1, 1), 1, (1, 1, 2, 2))
    np.testing.assert_array_equal(np.isnan(out[0, 0]), [[True, False], [False, False]])
    e = np.zeros((0, 1, 3, 3), np.float32)
    out = _run(kernel, e, w, None, (1, 1), (0, 0), (1, 1), 1, (0, 1, 2, 2))
    assert out.shape == (0, 1, 2, 2)


def _conv_transpose2d(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None,
    stride: tuple[int, int],
    padding: tuple[int, int],
    output_padding: tuple[int, int],
    dilation: tuple[int, int],
    groups: int,
) -> np.ndarray:
    """The definition: every input pixel scatters input * weight over the full output,
    which is then cropped by padding (output_padding adds rows at the bottom and right)."""
    n, c, h, wd = x.shape
    _, ocg, kh, kw = w.shape
    icg = c // groups
    full_h = (h - 1) * stride[0] + dilation[0] * (kh - 1) + 1 + output_padding[0]
    full_w = (wd - 1) * stride[1] + dilation[1] * (kw - 1) + 1 + output_padding[1]
    y = np.zeros((n, ocg * groups, full_h, full_w))
    for ic in range(c):
        g = ic // icg
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for b_ in range(kw):
                        oh = i * stride[0] + a * dilation[0]
                        ow = j * stride[1] + b_ * dilation[1]
                        y[:, g * ocg : (g + 1) * ocg, oh, ow] += (
                            x[:, ic, i, j, None].astype(np.float64) * w[ic, :, a, b_]
                        )
    y = y[:, :, padding[0] : full_h - padding[0], padding[1] : full_w - padding[1]]
    if b is not None:
        y += b.astype(np.float64)[None, :, None, None]
    return y


def _run_transposed(
    kernel: KernelRunner,
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None,
    params: tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]],
    groups: int,
) -> tuple[np.ndarray, np.ndarray]:
    stride, padding, output_padding, dilation = params
    expected = _conv_transpose2d(x, w, b, stride, padding, output_padding, dilation, groups)
    args = [In(x), In(w), In(b) if b is not None else None, IntList(stride), IntList(padding)]
    args += [IntList(dilation), True, IntList(output_padding), groups, Out(x.dtype, expected.shape)]
    (out,) = kernel.run(OP, args)
    return out, expected


@pytest.mark.parametrize("dtype", FLOATING)
def test_conv_transpose2d_every_parameter(kernel: KernelRunner, dtype: type) -> None:
    rng = np.random.default_rng(21)
    x = rng.standard_normal((2, 4, 3, 4)).astype(dtype)
    w = rng.standard_normal((4, 3, 3, 2)).astype(dtype)
    b = rng.standard_normal(6).astype(dtype)
    out, expected = _run_transposed(kernel, x, w, b, ((2, 3), (1, 0), (1, 2), (1, 2)), 2)
    assert out.shape == (2, 6, 6, 14)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", INTEGER)
def test_conv_transpose2d_integers(kernel: KernelRunner, dtype: type) -> None:
    rng = np.random.default_rng(22)
    x = rng.integers(0, 4, (1, 2, 3, 3)).astype(dtype)
    w = rng.integers(0, 4, (2, 2, 2, 2)).astype(dtype)
    out, expected = _run_transposed(kernel, x, w, None, ((2, 2), (0, 0), (0, 0), (1, 1)), 1)
    np.testing.assert_array_equal(out, expected.astype(dtype))


def test_conv_transpose1d(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(23)
    x = rng.standard_normal((1, 2, 5)).astype(np.float32)
    w = rng.standard_normal((2, 3, 3)).astype(np.float32)
    expected = _conv_transpose2d(
        x[:, :, None], w[:, :, None], None, (1, 2), (0, 1), (0, 1), (1, 1), 1
    )
    args = [In(x), In(w), None, IntList((2,)), IntList((1,)), IntList((1,)), True, IntList((1,))]
    args += [1, Out(np.float32, (1, 3, 10))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_allclose(out, expected[:, :, 0], rtol=1e-5, atol=1e-5)


def test_conv_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 2, 4, 4), np.float32)
    w = np.ones((2, 2, 3, 3), np.float32)
    good = [IntList((1, 1)), IntList((0, 0)), IntList((1, 1))]
    for args in (
        # output_padding must be smaller than stride or dilation (both 1 here)
        [In(x), In(w), None, *good, True, IntList((1, 1)), 1, Out(np.float32, (1, 2, 7, 7))],
        # transposed: weight's first dim must be input's channels
        [In(x), In(np.ones((3, 2, 3, 3), np.float32)), None, *good, True, IntList((0, 0)), 1]
        + [Out(np.float32, (1, 2, 6, 6))],
        [In(x), In(w), None, *good, False, IntList((0, 0)), 2, Out(np.float32, (1, 2, 2, 2))],
        [In(x), In(w.astype(np.float64)), None, *good, False, IntList((0, 0)), 1]
        + [Out(np.float32, (1, 2, 2, 2))],
        [In(x), In(np.ones((2, 2, 5, 5), np.float32)), None, *good, False, IntList((0, 0)), 1]
        + [Out(np.float32, (1, 2, 1, 1))],
        [In(x.astype(np.bool_)), In(w.astype(np.bool_)), None, *good, False, IntList((0, 0)), 1]
        + [Out(np.bool_, (1, 2, 2, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_convolution_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(77)
    x, w, b = bfloat16_inputs(
        rng.standard_normal((1, 4, 5, 5)), rng.standard_normal((4, 2, 3, 3)), rng.standard_normal(4)
    )
    args = [In(x), In(w), In(b), IntList((2, 1)), IntList((1, 1)), IntList((1, 1)), False]
    args += [IntList((0, 0)), 2, Out(np.float32, (1, 4, 3, 5))]
    (got,) = run_bfloat16(kernel, OP, args)
    expected = _conv2d(x, w, b, (2, 1), (1, 1), (1, 1), 2)
    assert_bfloat16_close(got, expected, atol=1e-1)
