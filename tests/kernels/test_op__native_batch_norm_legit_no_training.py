from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::_native_batch_norm_legit_no_training.out"


def _reference(
    x: np.ndarray,
    w: np.ndarray | None,
    b: np.ndarray | None,
    mean: np.ndarray,
    var: np.ndarray,
    eps: float,
) -> np.ndarray:
    shape = (1, -1) + (1,) * (x.ndim - 2)
    y = (x.astype(np.float64) - mean.reshape(shape)) / np.sqrt(
        var.astype(np.float64).reshape(shape) + eps
    )
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def _outs(dtype: type, shape: tuple[int, ...]) -> list[Out]:
    return [Out(dtype, shape), Out(dtype, (0,)), Out(dtype, (0,))]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_matches_reference(kernel: KernelRunner, dtype: type, affine: bool) -> None:
    rng = np.random.default_rng(10)
    x = rng.standard_normal((2, 3, 4, 5)).astype(dtype)
    w = rng.standard_normal(3).astype(dtype) if affine else None
    b = rng.standard_normal(3).astype(dtype) if affine else None
    mean = rng.standard_normal(3).astype(dtype)
    var = rng.uniform(0.5, 2.0, 3).astype(dtype)
    args = [In(x), In(w) if w is not None else None, In(b) if b is not None else None]
    args += [In(mean), In(var), 0.1, 1e-5, *_outs(dtype, x.shape)]
    y, m, s = kernel.run(OP, args)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    expected = _reference(x, w, b, mean, var, 1e-5)
    np.testing.assert_allclose(y.astype(np.float64), expected, rtol=tol, atol=tol)
    assert m.shape == (0,) and s.shape == (0,)


def test_batch_norm_2d_input_channels_last_and_nan(kernel: KernelRunner) -> None:
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.inf]], np.float32)
    mean = np.array([1.0, 2.0, 3.0], np.float32)
    var = np.array([4.0, 0.25, 1.0], np.float32)
    y, _, _ = kernel.run(
        OP, [In(x), None, None, In(mean), In(var), 0.1, 0.0, *_outs(np.float32, x.shape)]
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_allclose(y, _reference(x, None, None, mean, var, 0.0), rtol=1e-6)
    rng = np.random.default_rng(11)
    x4 = rng.standard_normal((1, 2, 3, 3)).astype(np.float32)
    p = np.array([0.5, 2.0], np.float32)
    args = [In(x4, dim_order=(0, 2, 3, 1)), In(p), In(p), In(p), In(p), 0.1, 1e-5]
    y, _, _ = kernel.run(OP, args + _outs(np.float32, x4.shape))
    np.testing.assert_allclose(y, _reference(x4, p, p, p, p, 1e-5), rtol=1e-5, atol=1e-6)


def test_batch_norm_empty(kernel: KernelRunner) -> None:
    x = np.zeros((0, 2, 3), np.float32)
    p = np.ones(2, np.float32)
    y, _, _ = kernel.run(
        OP, [In(x), None, None, In(p), In(p), 0.1, 1e-5, *_outs(np.float32, x.shape)]
    )
    assert y.shape == (0, 2, 3)


def test_batch_norm_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    p = np.ones(3, np.float32)
    for args in (
        [
            In(x),
            None,
            None,
            In(np.ones(2, np.float32)),
            In(p),
            0.1,
            1e-5,
            *_outs(np.float32, (2, 3)),
        ],
        [In(x), None, None, In(p.astype(np.float64)), In(p), 0.1, 1e-5, *_outs(np.float32, (2, 3))],
        [In(x), None, None, In(p), In(p), 0.1, 1e-5, *_outs(np.float32, (3, 2))],
        [In(x.astype(np.int64)), None, None, In(p.astype(np.int64)), In(p.astype(np.int64))]
        + [0.1, 1e-5, *_outs(np.int64, (2, 3))],
    ):
        assert_fails(kernel, OP, args)


def test_native_batch_norm_legit_no_training_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(80)
    (x,) = bfloat16_inputs(rng.standard_normal((2, 3, 2, 2)) * 3)
    w, b, mean = bfloat16_inputs(*rng.standard_normal((3, 3)))
    (var,) = bfloat16_inputs(rng.uniform(0.5, 2.0, 3))
    args = [In(x), In(w), In(b), In(mean), In(var), 0.1, 1e-5, *_outs(np.float32, x.shape)]
    y, m, s = run_bfloat16(kernel, OP, args)
    assert_bfloat16_close(y, _reference(x, w, b, mean, var, 1e-5), rtol=2e-2, atol=5e-2)
    assert m.shape == (0,) and s.shape == (0,)
