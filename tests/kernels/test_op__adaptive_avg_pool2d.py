from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::_adaptive_avg_pool2d.out"


def _reference(x: np.ndarray, oh: int, ow: int) -> np.ndarray:
    *lead, h, w = x.shape
    out = np.zeros((*lead, oh, ow))
    for i in range(oh):
        h0, h1 = i * h // oh, -(-(i + 1) * h // oh)
        for j in range(ow):
            w0, w1 = j * w // ow, -(-(j + 1) * w // ow)
            out[..., i, j] = x[..., h0:h1, w0:w1].astype(np.float64).mean(axis=(-2, -1))
    return out


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("size", [(1, 1), (3, 2), (5, 7)])
def test_adaptive_avg_pool_matches_reference(
    kernel: KernelRunner, dtype: type, size: tuple[int, int]
) -> None:
    x = np.random.default_rng(40).standard_normal((2, 3, 5, 7)).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList(size), Out(dtype, (2, 3, *size))])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), _reference(x, *size), rtol=tol, atol=tol)


def test_adaptive_avg_pool_3d_upsampling_bins_nan_and_empty(kernel: KernelRunner) -> None:
    x = np.random.default_rng(41).standard_normal((2, 3, 2)).astype(np.float32)
    x[0, 0, 0] = np.nan
    (out,) = kernel.run(OP, [In(x), IntList((4, 5)), Out(np.float32, (2, 4, 5))])
    np.testing.assert_allclose(out, _reference(x, 4, 5), rtol=1e-5)
    e = np.zeros((0, 2, 3, 3), np.float32)
    (out,) = kernel.run(OP, [In(e), IntList((2, 2)), Out(np.float32, (0, 2, 2, 2))])
    assert out.shape == (0, 2, 2, 2)


def test_adaptive_avg_pool_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 2, 4, 4), np.float32)
    for args in (
        [In(x), IntList((2,)), Out(np.float32, (1, 2, 2, 2))],
        [In(x), IntList((2, 2)), Out(np.float64, (1, 2, 2, 2))],
        [In(x), IntList((2, 2)), Out(np.float32, (1, 2, 3, 3))],
        [In(x.astype(np.int32)), IntList((2, 2)), Out(np.int32, (1, 2, 2, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_adaptive_avg_pool2d_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(83)
    (x,) = bfloat16_inputs(rng.standard_normal((1, 2, 5, 7)) * 3)
    (got,) = run_bfloat16(kernel, OP, [In(x), IntList((3, 2)), Out(np.float32, (1, 2, 3, 2))])
    assert_bfloat16_close(got, _reference(x, 3, 2), atol=2e-2)
