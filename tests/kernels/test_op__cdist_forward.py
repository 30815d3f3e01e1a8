from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::_cdist_forward.out"


def _cdist(a: np.ndarray, b: np.ndarray, p: float) -> np.ndarray:
    d = np.abs(a[..., :, None, :].astype(np.float64) - b[..., None, :, :].astype(np.float64))
    if p == 0:
        return (d != 0).sum(-1).astype(np.float64)
    if np.isinf(p):
        return d.max(-1, initial=0.0)
    return (d**p).sum(-1) ** (1 / p)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.5, np.inf])
def test_cdist_matches_reference(kernel: KernelRunner, dtype: type, p: float) -> None:
    rng = np.random.default_rng(120)
    a = rng.standard_normal((2, 3, 4)).astype(dtype)
    b = rng.standard_normal((2, 5, 4)).astype(dtype)
    (out,) = kernel.run(OP, [In(a), In(b), p, None, Out(dtype, (2, 3, 5))])
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), _cdist(a, b, p), rtol=tol, atol=tol)


def test_cdist_broadcast_strided_and_empty(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(121)
    a = rng.standard_normal((2, 1, 3, 4)).astype(np.float32)
    b = rng.standard_normal((3, 5, 4)).astype(np.float32)
    args = [In(a, dim_order=(0, 1, 3, 2)), In(b), 2.0, 1, Out(np.float32, (2, 3, 3, 5))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_allclose(out, _cdist(a, b, 2.0), rtol=1e-5, atol=1e-6)
    # No features: every distance is 0.
    (out,) = kernel.run(
        OP,
        [In(np.zeros((2, 0), np.float32)), In(np.zeros((3, 0), np.float32)), 2.0, None]
        + [Out(np.float32, (2, 3))],
    )
    np.testing.assert_array_equal(out, np.zeros((2, 3), np.float32))


def test_cdist_errors(kernel: KernelRunner) -> None:
    a = np.ones((3, 4), np.float32)
    out = Out(np.float32, (3, 3))
    for args, text in (
        ([In(a), In(np.ones((3, 5), np.float32)), 2.0, None, out], "same number of features"),
        ([In(a), In(a), -1.0, None, out], "non-negative"),
        ([In(a), In(a), np.nan, None, out], "non-negative"),
        ([In(a), In(a), 2.0, 3, out], "compute_mode"),
        ([In(a[0]), In(a), 2.0, None, out], "at least 2 dims"),
        ([In(a), In(a.astype(np.float64)), 2.0, None, out], "x1's dtype"),
        (
            [In(np.ones((2, 3, 4), np.float32)), In(np.ones((3, 3, 4), np.float32)), 2.0, None]
            + [Out(np.float32, (2, 3, 3))],
            "do not broadcast",
        ),
        ([In(a), In(a), 2.0, None, Out(np.float32, (3, 4))], "wrong shape"),
        (
            [In(a.astype(np.int64)), In(a.astype(np.int64)), 2.0, None, Out(np.int64, (3, 3))],
            "Long",
        ),
    ):
        assert_fails(kernel, OP, args, text)
