from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::native_layer_norm.out"


def _reference(
    x: np.ndarray, k: int, w: np.ndarray | None, b: np.ndarray | None, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x64 = x.astype(np.float64)
    axes = tuple(range(x.ndim - k, x.ndim))
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    y = (x64 - mean) * rstd
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y, mean, rstd


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_matches_reference(kernel: KernelRunner, dtype: type, affine: bool) -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((2, 3, 4)) * 3 + 1).astype(dtype)
    w = rng.standard_normal((3, 4)).astype(dtype) if affine else None
    b = rng.standard_normal((3, 4)).astype(dtype) if affine else None
    args: list[object] = [In(x), IntList((3, 4)), In(w) if w is not None else None]
    args += [In(b) if b is not None else None, 1e-5]
    args += [Out(dtype, (2, 3, 4)), Out(dtype, (2, 1, 1)), Out(dtype, (2, 1, 1))]
    y, mean, rstd = kernel.run(OP, args)
    ry, rmean, rrstd = _reference(x, 2, w, b, 1e-5)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(y.astype(np.float64), ry, rtol=tol, atol=tol)
    np.testing.assert_allclose(mean.astype(np.float64), rmean, rtol=tol, atol=tol)
    np.testing.assert_allclose(rstd.astype(np.float64), rrstd, rtol=tol, atol=tol)


def test_layer_norm_last_dim_only_weight_and_nan(kernel: KernelRunner) -> None:
    x = np.array([[1.0, 2.0, 3.0, 4.0], [np.nan, 0.0, 0.0, 0.0], [5.0, 5.0, 5.0, 5.0]], np.float32)
    w = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    args = [In(x), IntList((4,)), In(w), None, 0.5]
    args += [Out(np.float32, (3, 4)), Out(np.float32, (3, 1)), Out(np.float32, (3, 1))]
    y, mean, rstd = kernel.run(OP, args)
    ry, rmean, rrstd = _reference(x, 1, w, None, 0.5)
    np.testing.assert_allclose(y, ry, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mean, rmean, rtol=1e-6)
    np.testing.assert_allclose(rstd, rrstd, rtol=1e-5)
    assert np.isnan(y[1]).all() and np.isnan(mean[1, 0])


def test_layer_norm_empty_rows(kernel: KernelRunner) -> None:
    x = np.zeros((0, 4), np.float32)
    args = [In(x), IntList((4,)), None, None, 1e-5]
    args += [Out(np.float32, (0, 4)), Out(np.float32, (0, 1)), Out(np.float32, (0, 1))]
    y, mean, rstd = kernel.run(OP, args)
    assert y.shape == (0, 4) and mean.shape == (0, 1) and rstd.shape == (0, 1)


def test_layer_norm_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    outs = [Out(np.float32, (2, 3)), Out(np.float32, (2, 1)), Out(np.float32, (2, 1))]
    for args in (
        [In(x), IntList((2,)), None, None, 1e-5, *outs],
        [In(x), IntList((3,)), In(np.ones(2, np.float32)), None, 1e-5, *outs],
        [In(x), IntList((3,)), In(np.ones(3, np.float64)), None, 1e-5, *outs],
        [In(x.astype(np.int32)), IntList((3,)), None, None, 1e-5]
        + [Out(np.int32, (2, 3)), Out(np.int32, (2, 1)), Out(np.int32, (2, 1))],
    ):
        assert_fails(kernel, OP, args)


def test_native_layer_norm_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(79)
    (x,) = bfloat16_inputs(rng.standard_normal((2, 3, 4)) * 3)
    w, b = bfloat16_inputs(rng.standard_normal((4,)), rng.standard_normal((4,)))
    args: list[object] = [In(x), IntList((4,)), In(w), In(b), 1e-5]
    args += [Out(np.float32, (2, 3, 4)), Out(np.float32, (2, 3, 1)), Out(np.float32, (2, 3, 1))]
    y, mean, rstd = run_bfloat16(kernel, OP, args)
    ry, rmean, rrstd = _reference(x, 1, w, b, 1e-5)
    assert_bfloat16_close(y, ry, rtol=3e-2, atol=3e-2)
    assert_bfloat16_close(mean, rmean, atol=1e-2)
    assert_bfloat16_close(rstd, rrstd, rtol=2e-2)
