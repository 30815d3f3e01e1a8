from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::_pdist_forward.out"


def _pdist(x: np.ndarray, p: float) -> np.ndarray:
    rows = x.astype(np.float64)
    pairs = []
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            d = np.abs(rows[i] - rows[j])
            if p == 0:
                pairs.append(float((d != 0).sum()))
            elif np.isinf(p):
                pairs.append(d.max(initial=0.0))
            else:
                pairs.append((d**p).sum() ** (1 / p))
    return np.array(pairs)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 0.5, np.inf])
def test_pdist_matches_reference(kernel: KernelRunner, dtype: type, p: float) -> None:
    x = np.random.default_rng(130).standard_normal((5, 3)).astype(dtype)
    (out,) = kernel.run(OP, [In(x), p, Out(dtype, (10,))])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), _pdist(x, p), rtol=tol, atol=tol)


def test_pdist_strided_and_few_rows(kernel: KernelRunner) -> None:
    x = np.random.default_rng(131).standard_normal((4, 3)).astype(np.float32)
    (out,) = kernel.run(OP, [In(x, dim_order=(1, 0)), 2.0, Out(np.float32, (6,))])
    np.testing.assert_allclose(out, _pdist(x, 2.0), rtol=1e-5)
    for rows in (0, 1):
        (out,) = kernel.run(OP, [In(np.ones((rows, 3), np.float32)), 2.0, Out(np.float32, (0,))])
        assert out.shape == (0,)


def test_pdist_errors(kernel: KernelRunner) -> None:
    x = np.ones((3, 2), np.float32)
    for args, text in (
        ([In(x), -2.0, Out(np.float32, (3,))], "non-negative"),
        ([In(x[0]), 2.0, Out(np.float32, (3,))], "2 dims"),
        ([In(x), 2.0, Out(np.float64, (3,))], "self's dtype"),
        ([In(x), 2.0, Out(np.float32, (4,))], "wrong shape"),
        ([In(x.astype(np.int32)), 2.0, Out(np.int32, (3,))], "Int"),
    ):
        assert_fails(kernel, OP, args, text)
