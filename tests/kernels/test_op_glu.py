from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::glu.out"


def _glu(x: np.ndarray, dim: int) -> np.ndarray:
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    return a / (1.0 + np.exp(-b))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_glu_matches_reference(kernel: KernelRunner, dtype: type, dim: int) -> None:
    x = np.random.default_rng(40).standard_normal((4, 6, 2)).astype(dtype)
    shape = list(x.shape)
    shape[dim] //= 2
    (out,) = kernel.run(OP, [In(x), dim, Out(dtype, tuple(shape))])
    tol = 2e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(out.astype(np.float64), _glu(x, dim), rtol=tol, atol=tol)


def test_glu_channels_last_and_other_out_dtype(kernel: KernelRunner) -> None:
    x = np.random.default_rng(41).standard_normal((1, 4, 3, 2)).astype(np.float32)
    (out,) = kernel.run(OP, [In(x, dim_order=(0, 2, 3, 1)), 1, Out(np.float32, (1, 2, 3, 2))])
    np.testing.assert_allclose(out, _glu(x, 1), rtol=1e-6)
    # ExecuTorch's kernel lets out have another floating dtype than self.
    (out,) = kernel.run(OP, [In(x), -1, Out(np.float64, (1, 4, 3, 1))])
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, _glu(x, -1), rtol=1e-6)


def test_glu_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.zeros((0, 4), np.float32)), 1, Out(np.float32, (0, 2))])
    assert out.shape == (0, 2)


def test_glu_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    assert_fails(kernel, OP, [In(x), 1, Out(np.float32, (2, 1))], "even size")
    assert_fails(kernel, OP, [In(x), 2, Out(np.float32, (2, 3))], "dim is out of range")
    assert_fails(kernel, OP, [In(x), 0, Out(np.float32, (2, 3))], "wrong shape")
    assert_fails(kernel, OP, [In(np.array(1.0, np.float32)), 0, Out(np.float32, ())], "one dim")
    assert_fails(kernel, OP, [In(x.astype(np.int32)), 0, Out(np.int32, (1, 3))], "Int")
    assert_fails(kernel, OP, [In(np.ones((2, 2), np.float32)), 0, Out(np.int64, (1, 2))], "Long")
