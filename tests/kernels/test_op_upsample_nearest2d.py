from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import DoubleList, IntList
from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import In, KernelRunner, Out, assert_fails

OP = "aten::upsample_nearest2d.vec_out"


def _sources(inp: int, out: int, scale: float | None) -> np.ndarray:
    if out == inp:
        return np.arange(out)
    if out == 2 * inp:
        return np.arange(out) // 2
    step = np.float32(1.0 / scale) if scale else np.float32(inp) / np.float32(out)
    return np.minimum(np.floor(np.arange(out, dtype=np.float32) * step).astype(np.int64), inp - 1)


def _reference(x: np.ndarray, oh: int, ow: int, scales: tuple[float, float] | None) -> np.ndarray:
    h, w = x.shape[-2:]
    rows = _sources(h, oh, scales[0] if scales else None)
    cols = _sources(w, ow, scales[1] if scales else None)
    return x[..., rows, :][..., cols]


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
def test_nearest_output_size(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5) % 251).astype(dtype)
    for size in ((4, 5), (8, 10), (7, 3), (1, 1)):
        (out,) = kernel.run(OP, [In(x), IntList(size), None, Out(dtype, (2, 3, *size))])
        np.testing.assert_array_equal(out, _reference(x, *size, None))


def test_nearest_scale_factors_3d_and_layout(kernel: KernelRunner) -> None:
    x = np.random.default_rng(50).standard_normal((3, 4, 5)).astype(np.float32)
    (out,) = kernel.run(OP, [In(x), None, DoubleList((1.5, 2.7)), Out(np.float32, (3, 6, 13))])
    np.testing.assert_array_equal(out, _reference(x, 6, 13, (1.5, 2.7)))
    y = np.random.default_rng(51).standard_normal((1, 3, 4, 4)).astype(np.float64)
    args = [In(y, dim_order=(0, 2, 3, 1)), IntList((6, 6)), None, Out(np.float64, (1, 3, 6, 6))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(out, _reference(y, 6, 6, None))


def test_nearest_nan_and_empty_batch(kernel: KernelRunner) -> None:
    x = np.array([[[[np.nan, np.inf]]]], np.float32)
    (out,) = kernel.run(OP, [In(x), IntList((2, 4)), None, Out(np.float32, (1, 1, 2, 4))])
    np.testing.assert_array_equal(out, _reference(x, 2, 4, None))
    e = np.zeros((0, 2, 3, 3), np.float32)
    (out,) = kernel.run(OP, [In(e), IntList((6, 6)), None, Out(np.float32, (0, 2, 6, 6))])
    assert out.shape == (0, 2, 6, 6)


def test_nearest_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 1, 2, 2), np.float32)
    for args in (
        [In(x), None, None, Out(np.float32, (1, 1, 4, 4))],
        [In(x), IntList((4, 4)), DoubleList((2.0, 2.0)), Out(np.float32, (1, 1, 4, 4))],
        [In(x), IntList((4,)), None, Out(np.float32, (1, 1, 4, 4))],
        [In(x), IntList((4, 4)), None, Out(np.float64, (1, 1, 4, 4))],
        [In(x.astype(np.int32)), IntList((4, 4)), None, Out(np.int32, (1, 1, 4, 4))],
    ):
        assert_fails(kernel, OP, args)


def test_upsample_nearest2d_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(85)
    (x,) = bfloat16_inputs(rng.standard_normal((1, 2, 3, 4)) * 3)
    (got,) = run_bfloat16(kernel, OP, [In(x), IntList((5, 7)), None, Out(np.float32, (1, 2, 5, 7))])
    np.testing.assert_array_equal(got, _reference(x, 5, 7, None))
    args = [In(x), None, DoubleList((2.0, 1.5)), Out(np.float32, (1, 2, 6, 6))]
    (got,) = run_bfloat16(kernel, OP, args)
    np.testing.assert_array_equal(got, _reference(x, 6, 6, (2.0, 1.5)))
