from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::native_group_norm.out"


def _reference(
    x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, groups: int, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, c = x.shape[:2]
    grouped = x.astype(np.float64).reshape(n, groups, -1)
    mean = grouped.mean(axis=2)
    rstd = 1.0 / np.sqrt(grouped.var(axis=2) + eps)
    y = ((grouped - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y, mean, rstd


def _args(x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, groups: int) -> list[object]:
    n, c = x.shape[:2]
    hxw = int(np.prod(x.shape[2:]))
    outs = [Out(x.dtype, x.shape), Out(x.dtype, (n, groups)), Out(x.dtype, (n, groups))]
    optional = [In(w) if w is not None else None, In(b) if b is not None else None]
    return [In(x), *optional, n, c, hxw, groups, 1e-5, *outs]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_matches_reference(kernel: KernelRunner, dtype: type, affine: bool) -> None:
    rng = np.random.default_rng(60)
    x = rng.standard_normal((2, 6, 3, 2)).astype(dtype)
    w = rng.standard_normal(6).astype(dtype) if affine else None
    b = rng.standard_normal(6).astype(dtype) if affine else None
    y, mean, rstd = kernel.run(OP, _args(x, w, b, 3))
    tol = 2e-2 if dtype == np.float16 else 1e-5
    for actual, expected in zip((y, mean, rstd), _reference(x, w, b, 3, 1e-5), strict=True):
        np.testing.assert_allclose(actual.astype(np.float64), expected, rtol=tol, atol=tol)


def test_group_norm_channels_last_and_empty(kernel: KernelRunner) -> None:
    x = np.random.default_rng(61).standard_normal((1, 4, 2, 3)).astype(np.float32)
    args = _args(x, None, None, 2)
    args[0] = In(x, dim_order=(0, 2, 3, 1))
    y, mean, rstd = kernel.run(OP, args)
    for actual, expected in zip((y, mean, rstd), _reference(x, None, None, 2, 1e-5), strict=True):
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)
    # No elements per group: mean 0 and rstd NaN, as ExecuTorch's kernel writes them.
    y, mean, rstd = kernel.run(OP, _args(np.zeros((2, 4, 0), np.float32), None, None, 2))
    assert y.shape == (2, 4, 0)
    assert (mean == 0).all() and np.isnan(rstd).all() and mean.shape == (2, 2)


def test_group_norm_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 4, 3), np.float32)
    ok = _args(x, None, None, 2)
    for index, value, text in (
        (6, 3, "divide C"),
        (6, 0, "divide C"),
        (3, 3, "match input's shape"),
        (5, 4, "match input's shape"),
        (5, -3, "match input's shape"),
        (1, In(np.ones(3, np.float32)), "one entry per channel"),
        (2, In(np.ones(4, np.float64)), "input's dtype"),
        (9, Out(np.float32, (2, 3)), "wrong shape"),
        (8, Out(np.float64, (2, 4, 3)), "input's dtype"),
    ):
        args = list(ok)
        args[index] = value
        assert_fails(kernel, OP, args, text)
    assert_fails(kernel, OP, _args(x.astype(np.int32), None, None, 2), "Int")
