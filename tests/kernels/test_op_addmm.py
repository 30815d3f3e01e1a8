from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import (
    FLOATING,
    INTEGER,
    In,
    KernelRunner,
    Out,
    assert_fails,
)

OP = "aten::addmm.out"


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("self_shape", [(3, 2), (2,), (1, 2), ()])
def test_addmm_broadcasts_self(kernel: KernelRunner, dtype: type, self_shape: tuple) -> None:
    rng = np.random.default_rng(7)
    c = rng.standard_normal(self_shape).astype(dtype)
    a, b = rng.standard_normal((3, 4)).astype(dtype), rng.standard_normal((4, 2)).astype(dtype)
    (out,) = kernel.run(OP, [In(c), In(a), In(b), 0.5, 2, Out(dtype, (3, 2))])
    expected = 0.5 * c.astype(np.float64) + 2 * (a.astype(np.float64) @ b.astype(np.float64))
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", INTEGER)
def test_addmm_integers_wrap_like_torch(kernel: KernelRunner, dtype: type) -> None:
    rng = np.random.default_rng(11)
    c = rng.integers(0, 100, (3, 2)).astype(dtype)
    a, b = rng.integers(0, 100, (3, 5)).astype(dtype), rng.integers(0, 100, (5, 2)).astype(dtype)
    (out,) = kernel.run(OP, [In(c), In(a), In(b), 2, 3, Out(dtype, (3, 2))])
    wide = 2 * c.astype(np.int64) + 3 * (a.astype(np.int64) @ b.astype(np.int64))
    np.testing.assert_array_equal(out, wide.astype(dtype))  # modulo 2**bits, as torch


def test_addmm_beta_zero_ignores_nan_self(kernel: KernelRunner) -> None:
    c = np.full((2, 2), np.nan, np.float32)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((3, 2), np.float32)
    (out,) = kernel.run(OP, [In(c), In(a), In(b), 0, 1, Out(np.float32, (2, 2))])
    np.testing.assert_array_equal(out, a @ b)


def test_addmm_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(87)
    c, a, b = bfloat16_inputs(
        rng.standard_normal(2), rng.standard_normal((3, 8)), rng.standard_normal((8, 2))
    )
    (got,) = run_bfloat16(kernel, OP, [In(c), In(a), In(b), 1, 0.5, Out(np.float32, (3, 2))])
    assert_bfloat16_close(got, c + 0.5 * (a @ b), atol=5e-2)


def test_addmm_errors(kernel: KernelRunner) -> None:
    f = np.ones((2, 2), np.float32)
    cases = [
        (In(f), In(f), In(np.ones((3, 2), np.float32)), Out(np.float32, (2, 2)), "multiplied"),
        (In(np.ones((3,), np.float32)), In(f), In(f), Out(np.float32, (2, 2)), "broadcast"),
        (In(f), In(f), In(f), Out(np.float64, (2, 2)), "one dtype"),
        (In(f.astype(np.bool_)),) * 3 + (Out(np.bool_, (2, 2)), "not supported"),
    ]
    for c, a, b, out, message in cases:
        assert_fails(kernel, OP, [c, a, b, 1, 1, out], message)
