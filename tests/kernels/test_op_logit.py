from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import INTEGER, run_unary

OP = "aten::logit.out"


def reference(x: np.ndarray, eps: float | None = None) -> np.ndarray:
    x = x.astype(np.float64)
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    with np.errstate(all="ignore"):
        return np.log(x / (1 - x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("eps", [None, 0.25])
def test_logit_matches_numpy(kernel: KernelRunner, dtype: type, eps: float | None) -> None:
    # Outside (0, 1) without eps: NaN, and +-inf at the ends, as in torch.
    x = np.array([0.1, 0.5, 0.9, 0.0, 1.0, -0.5, 2.0, np.nan], dtype=dtype)
    out = run_unary(kernel, OP, x, dtype, eps)
    np.testing.assert_allclose(out, reference(x, eps).astype(dtype), rtol=1e-5)


@pytest.mark.parametrize("dtype", [*INTEGER, np.bool_])
def test_logit_of_integers_is_float(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([0, 1, 1, 0], dtype=dtype)
    out = run_unary(kernel, OP, x, np.float32, None)
    np.testing.assert_array_equal(out, reference(x).astype(np.float32))


def test_logit_computes_in_out_dtype(kernel: KernelRunner) -> None:
    """A Float self into a Double out is computed in Double, as ExecuTorch's kernel does."""
    x = np.array([0.3, 0.7], dtype=np.float32)
    out = run_unary(kernel, OP, x, np.float64, None)
    np.testing.assert_allclose(out, reference(x), rtol=1e-12)


def test_logit_empty_and_strided(kernel: KernelRunner) -> None:
    assert run_unary(kernel, OP, np.zeros((0, 3), dtype=np.float32), np.float32, None).shape == (
        0,
        3,
    )
    x = np.linspace(0.05, 0.95, 24).reshape(2, 3, 4)
    out = run_unary(kernel, OP, x, np.float64, 0.1, dim_order=(2, 1, 0))
    np.testing.assert_allclose(out, reference(x, 0.1), rtol=1e-12)


def test_logit_errors_are_one_line(kernel: KernelRunner) -> None:
    half = np.array([0.5], dtype=np.float16)
    # A Half out is refused, as by ExecuTorch's portable logit (torch returns Half).
    assert_fails(kernel, OP, [In(half), None, Out(np.float16, (1,))], "out must be Float or Double")
    assert_fails(kernel, OP, [In(half), None, Out(np.int32, (1,))], "out must be Float or Double")
    ones = np.ones((2, 2), dtype=np.float32)
    assert_fails(kernel, OP, [In(ones), 0.1, Out(np.float32, (4,))])
