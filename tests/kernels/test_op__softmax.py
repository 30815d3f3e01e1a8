from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::_softmax.out"


def _reference(x: np.ndarray, axis: int) -> np.ndarray:
    x = x.astype(np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("dim", [0, -1])
def test_softmax_matches_reference(kernel: KernelRunner, dtype: type, dim: int) -> None:
    x = (np.random.default_rng(6).standard_normal((3, 4, 5)) * 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), dim, False, Out(dtype, x.shape)])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), _reference(x, dim), rtol=tol, atol=tol)


def test_softmax_large_values_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array([[1000.0, 0.0], [-np.inf, 0.0], [np.nan, 1.0]], np.float32)
    (out,) = kernel.run(OP, [In(x), 1, False, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out[:2], [[1.0, 0.0], [0.0, 1.0]])
    assert np.isnan(out[2]).all()
    (out,) = kernel.run(OP, [In(np.array(3.0, np.float32)), 0, False, Out(np.float32, ())])
    assert out == 1.0
    e = np.zeros((0, 3), np.float32)
    assert kernel.run(OP, [In(e), 1, False, Out(np.float32, (0, 3))])[0].shape == (0, 3)


def test_softmax_bfloat16(kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.random.default_rng(86).standard_normal((3, 5)) * 3)
    (got,) = run_bfloat16(kernel, OP, [In(x), 1, False, Out(np.float32, x.shape)])
    assert_bfloat16_close(got, _reference(x, 1), atol=1e-3)


def test_softmax_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        (In(x), 2, False, Out(np.float32, (2, 3)), "dim is out of range"),
        (In(x), 1, False, Out(np.float64, (2, 3)), "dtype"),
        (In(np.ones((2, 3), np.int32)), 1, False, Out(np.int32, (2, 3)), "not supported"),
    ]
    for *args, message in cases:
        assert_fails(kernel, OP, list(args), message)
