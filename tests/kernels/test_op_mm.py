from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import REAL, In, KernelRunner, Out, assert_fails

OP = "aten::mm.out"


@pytest.mark.parametrize("dtype", REAL)
def test_mm_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    a = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    b = (np.arange(8).reshape(4, 2) % 3).astype(dtype)
    (out,) = kernel.run(OP, [In(a), In(b), Out(dtype, (3, 2))])
    np.testing.assert_array_equal(out, (a.astype(np.int64) @ b.astype(np.int64)).astype(dtype))


def test_mm_float_values_and_layouts(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((7, 3)).astype(np.float32)
    (out,) = kernel.run(OP, [In(a, dim_order=(1, 0)), In(b), Out(np.float32, (5, 3))])
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)
    (out,) = kernel.run(OP, [In(a), In(b), Out(np.float32, (5, 3), dim_order=(1, 0))])
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


def test_mm_int_overflow_wraps_and_nan(kernel: KernelRunner) -> None:
    a = np.array([[100, 100]], dtype=np.int8)
    (out,) = kernel.run(OP, [In(a), In(a.T.copy()), Out(np.int8, (1, 1))])
    assert out[0, 0] == np.int8(np.int64(20000).astype(np.int8))
    f = np.array([[np.nan, 1.0], [np.inf, 0.0]], dtype=np.float32)
    (out,) = kernel.run(OP, [In(f), In(np.eye(2, dtype=np.float32)), Out(np.float32, (2, 2))])
    np.testing.assert_array_equal(np.isnan(out), [[True, True], [False, True]])


def test_mm_empty(kernel: KernelRunner) -> None:
    a = np.zeros((2, 0), dtype=np.float32)
    (out,) = kernel.run(OP, [In(a), In(np.zeros((0, 3), np.float32)), Out(np.float32, (2, 3))])
    np.testing.assert_array_equal(out, np.zeros((2, 3), np.float32))


def test_mm_errors(kernel: KernelRunner) -> None:
    a = np.ones((2, 3), dtype=np.float32)
    for args in (
        [In(a), In(a), Out(np.float32, (2, 3))],
        [In(a), In(a.T.copy()), Out(np.float32, (3, 3))],
        [In(a), In(a.T.astype(np.float64)), Out(np.float32, (2, 2))],
        [In(a.astype(np.bool_)), In(a.T.astype(np.bool_)), Out(np.bool_, (2, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_mm_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(75)
    a, b = bfloat16_inputs(rng.standard_normal((3, 8)), rng.standard_normal((8, 2)))
    (got,) = run_bfloat16(kernel, OP, [In(a), In(b), Out(np.float32, (3, 2))])
    assert_bfloat16_close(got, a @ b, atol=5e-2)
