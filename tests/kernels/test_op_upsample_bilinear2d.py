from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import DoubleList, IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::upsample_bilinear2d.vec_out"


def _axis(
    inp: int, out: int, align: bool, scale: float | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    o = np.arange(out, dtype=np.float64)
    if align:
        src = o * ((inp - 1) / (out - 1) if out > 1 else 0.0)
    else:
        step = 1.0 / scale if scale else inp / out
        src = np.maximum(step * (o + 0.5) - 0.5, 0.0)
    lo = np.minimum(src.astype(np.int64), inp - 1)
    hi = np.where(lo < inp - 1, lo + 1, lo)
    return lo, hi, src - lo


def _reference(
    x: np.ndarray, oh: int, ow: int, align: bool, scales: tuple[float, float] | None
) -> np.ndarray:
    h, w = x.shape[-2:]
    h0, h1, hw = _axis(h, oh, align, scales[0] if scales else None)
    w0, w1, ww = _axis(w, ow, align, scales[1] if scales else None)
    x = x.astype(np.float64)
    top = x[..., h0, :][..., w0] * (1 - ww) + x[..., h0, :][..., w1] * ww
    bottom = x[..., h1, :][..., w0] * (1 - ww) + x[..., h1, :][..., w1] * ww
    return top * (1 - hw)[:, None] + bottom * hw[:, None]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("align", [False, True])
def test_bilinear_output_size(kernel: KernelRunner, dtype: type, align: bool) -> None:
    x = np.random.default_rng(52).standard_normal((2, 3, 4, 5)).astype(dtype)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    for size in ((8, 10), (3, 7), (1, 1)):
        (out,) = kernel.run(OP, [In(x), IntList(size), align, None, Out(dtype, (2, 3, *size))])
        np.testing.assert_allclose(
            out.astype(np.float64), _reference(x, *size, align, None), rtol=tol, atol=tol
        )


@pytest.mark.parametrize("align", [False, True])
def test_bilinear_scale_factors_3d(kernel: KernelRunner, align: bool) -> None:
    x = np.random.default_rng(53).standard_normal((3, 4, 5)).astype(np.float32)
    args = [In(x), None, align, DoubleList((1.5, 2.7)), Out(np.float32, (3, 6, 13))]
    (out,) = kernel.run(OP, args)
    expected = _reference(x, 6, 13, align, None if align else (1.5, 2.7))
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_bilinear_nan_layout_and_empty(kernel: KernelRunner) -> None:
    x = np.array([[[[1.0, np.nan], [2.0, 3.0]]]], np.float32)
    (out,) = kernel.run(OP, [In(x), IntList((4, 4)), False, None, Out(np.float32, (1, 1, 4, 4))])
    # A NaN spreads even through a weight of 0 (0 * NaN), as in torch.
    np.testing.assert_allclose(out, _reference(x, 4, 4, False, None), rtol=1e-6)
    assert out[0, 0, 3, 0] == 2.0
    y = np.random.default_rng(54).standard_normal((1, 3, 4, 4)).astype(np.float64)
    args = [
        In(y, dim_order=(0, 2, 3, 1)),
        IntList((7, 5)),
        True,
        None,
        Out(np.float64, (1, 3, 7, 5)),
    ]
    (out,) = kernel.run(OP, args)
    np.testing.assert_allclose(out, _reference(y, 7, 5, True, None), rtol=1e-12)
    e = np.zeros((0, 2, 3, 3), np.float32)
    (out,) = kernel.run(OP, [In(e), IntList((6, 6)), False, None, Out(np.float32, (0, 2, 6, 6))])
    assert out.shape == (0, 2, 6, 6)


def test_bilinear_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 1, 2, 2), np.float32)
    for args in (
        [In(x), None, False, None, Out(np.float32, (1, 1, 4, 4))],
        [In(x), None, False, DoubleList((2.0,)), Out(np.float32, (1, 1, 4, 4))],
        [In(x), IntList((4, 4)), False, None, Out(np.float32, (1, 1, 3, 3))],
        [In(x.astype(np.uint8)), IntList((4, 4)), False, None, Out(np.uint8, (1, 1, 4, 4))],
    ):
        assert_fails(kernel, OP, args)


def test_upsample_bilinear2d_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(84)
    (x,) = bfloat16_inputs(rng.standard_normal((1, 2, 3, 4)) * 3)
    for align in (False, True):
        args = [In(x), IntList((5, 7)), align, None, Out(np.float32, (1, 2, 5, 7))]
        (got,) = run_bfloat16(kernel, OP, args)
        assert_bfloat16_close(got, _reference(x, 5, 7, align, None), atol=2e-2)
