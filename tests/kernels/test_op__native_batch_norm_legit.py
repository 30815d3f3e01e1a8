from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OUT = "aten::_native_batch_norm_legit.out"
NO_STATS = "aten::_native_batch_norm_legit.no_stats_out"


def _normalize(
    x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, w: np.ndarray | None, b: np.ndarray | None
) -> np.ndarray:
    shape = (1, -1) + (1,) * (x.ndim - 2)
    y = (x.astype(np.float64) - mean.reshape(shape)) * invstd.reshape(shape)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def _optional(a: np.ndarray | None) -> In | None:
    return In(a) if a is not None else None


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("affine", [True, False])
def test_batch_statistics(kernel: KernelRunner, dtype: type, affine: bool) -> None:
    rng = np.random.default_rng(70)
    x = rng.standard_normal((3, 2, 4, 2)).astype(dtype)
    w = rng.standard_normal(2).astype(dtype) if affine else None
    b = rng.standard_normal(2).astype(dtype) if affine else None
    outs = [Out(dtype, x.shape), Out(dtype, (2,)), Out(dtype, (2,))]
    y, mean, invstd = kernel.run(
        NO_STATS, [In(x), _optional(w), _optional(b), True, 0.1, 1e-5, *outs]
    )
    x64 = x.astype(np.float64)
    expected_mean = x64.mean(axis=(0, 2, 3))
    expected_invstd = 1.0 / np.sqrt(x64.var(axis=(0, 2, 3)) + 1e-5)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(mean.astype(np.float64), expected_mean, rtol=tol, atol=tol)
    np.testing.assert_allclose(invstd.astype(np.float64), expected_invstd, rtol=tol, atol=tol)
    expected = _normalize(x, expected_mean, expected_invstd, w, b)
    np.testing.assert_allclose(y.astype(np.float64), expected, rtol=tol, atol=tol)


def test_batch_statistics_ignore_training_flag_and_dim_order(kernel: KernelRunner) -> None:
    x = np.random.default_rng(71).standard_normal((2, 3, 2, 2)).astype(np.float32)
    outs = [Out(np.float32, x.shape), Out(np.float32, (3,)), Out(np.float32, (3,))]
    args = [In(x, dim_order=(0, 2, 3, 1)), None, None, False, 0.1, 1e-5, *outs]
    y, mean, invstd = kernel.run(NO_STATS, args)
    x64 = x.astype(np.float64)
    expected_invstd = 1.0 / np.sqrt(x64.var(axis=(0, 2, 3)) + 1e-5)
    np.testing.assert_allclose(mean, x64.mean(axis=(0, 2, 3)), rtol=1e-5, atol=1e-6)
    expected = _normalize(x, x64.mean(axis=(0, 2, 3)), expected_invstd, None, None)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", FLOATING)
def test_running_statistics(kernel: KernelRunner, dtype: type) -> None:
    rng = np.random.default_rng(72)
    x = rng.standard_normal((2, 3, 5)).astype(dtype)
    w, b, mean = (rng.standard_normal(3).astype(dtype) for _ in range(3))
    var = rng.uniform(0.5, 2.0, 3).astype(dtype)
    outs = [Out(dtype, x.shape), Out(dtype, (0,)), Out(dtype, (0,))]
    args = [In(x), In(w), In(b), In(mean), In(var), False, 0.1, 1e-3, *outs]
    y, saved_mean, saved_invstd = kernel.run(OUT, args)
    invstd = 1.0 / np.sqrt(var.astype(np.float64) + 1e-3)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    expected = _normalize(x, mean.astype(np.float64), invstd, w, b)
    np.testing.assert_allclose(y.astype(np.float64), expected, rtol=tol, atol=tol)
    assert saved_mean.shape == saved_invstd.shape == (0,)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    p = np.ones(3, np.float32)
    stat_outs = [Out(np.float32, (2, 3)), Out(np.float32, (3,)), Out(np.float32, (3,))]
    empty_outs = [Out(np.float32, (2, 3)), Out(np.float32, (0,)), Out(np.float32, (0,))]
    # ExecuTorch's portable kernel refuses training with running statistics too.
    args = [In(x), None, None, In(p), In(p), True, 0.1, 1e-5, *empty_outs]
    assert_fails(kernel, OUT, args, "training mode is not supported")
    args = [In(x), None, None, In(np.ones(2, np.float32)), In(p), False, 0.1, 1e-5, *empty_outs]
    assert_fails(kernel, OUT, args, "one entry per channel")
    args = [In(x), In(p.astype(np.float64)), None, True, 0.1, 1e-5, *stat_outs]
    assert_fails(kernel, NO_STATS, args, "input's dtype")
    args = [In(x), None, None, True, 0.1, 1e-5, *empty_outs]
    assert_fails(kernel, NO_STATS, args, "wrong shape")
    args = [In(np.ones(3, np.float32)), None, None, True, 0.1, 1e-5, *stat_outs]
    assert_fails(kernel, NO_STATS, args, "batch and a channel dim")
    args = [In(np.ones((0, 3), np.float32)), None, None, True, 0.1, 1e-5]
    assert_fails(kernel, NO_STATS, args + [Out(np.float32, (0, 3)), *stat_outs[1:]], "at least one")
    i64 = np.ones((2, 3), np.int64)
    outs = [Out(np.int64, (2, 3)), Out(np.int64, (3,)), Out(np.int64, (3,))]
    assert_fails(kernel, NO_STATS, [In(i64), None, None, True, 0.1, 1e-5, *outs], "Long")
