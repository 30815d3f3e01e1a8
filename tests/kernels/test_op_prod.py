from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import (
    REAL,
    In,
    KernelRunner,
    Out,
    assert_fails,
    scalar_type,
)


@pytest.mark.parametrize("dtype", [*REAL, np.bool_])
def test_prod_overloads(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 3 + 1).astype(dtype)
    (out,) = kernel.run("aten::prod.int_out", [In(x), 1, False, None, Out(dtype, (3,))])
    np.testing.assert_array_equal(out, np.prod(x, axis=1).astype(dtype))
    (out,) = kernel.run("aten::prod.int_out", [In(x), 0, True, None, Out(dtype, (1, 4))])
    np.testing.assert_array_equal(out, np.prod(x, axis=0, keepdims=True).astype(dtype))
    (out,) = kernel.run("aten::prod.out", [In(x[:2]), None, Out(dtype, ())])
    assert out == np.prod(x[:2]).astype(dtype)


def test_prod_overflow_dtype_nan_empty(kernel: KernelRunner) -> None:
    x = np.array([16, 16, 16], np.int8)
    (out,) = kernel.run("aten::prod.out", [In(x), None, Out(np.int8, ())])
    assert out == 0  # 4096 wraps to 0 in int8
    (out,) = kernel.run("aten::prod.out", [In(x), scalar_type(np.int64).number, Out(np.int64, ())])
    assert out == 4096
    f = np.array([[np.nan, 2.0], [np.inf, 0.0]], np.float32)
    (out,) = kernel.run("aten::prod.int_out", [In(f), 1, False, None, Out(np.float32, (2,))])
    assert np.isnan(out).all()
    (out,) = kernel.run(
        "aten::prod.out", [In(np.zeros((0,), np.float32)), None, Out(np.float32, ())]
    )
    assert out == 1.0
    (out,) = kernel.run(
        "aten::prod.int_out", [In(np.array(3, np.int32)), 0, False, None, Out(np.int32, ())]
    )
    assert out == 3


def test_prod_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for op, args in (
        ("aten::prod.int_out", [In(x), 2, False, None, Out(np.float32, (2,))]),
        ("aten::prod.int_out", [In(x), 1, False, None, Out(np.float32, (3,))]),
        ("aten::prod.out", [In(x), scalar_type(np.float64).number, Out(np.float32, ())]),
    ):
        assert_fails(kernel, op, args)


def test_prod_bfloat16(kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.random.default_rng(72).uniform(0.5, 1.5, (3, 6)) * [[1], [-1], [1]])
    out = Out(np.float32, (3,))
    (got,) = run_bfloat16(kernel, "aten::prod.int_out", [In(x), 1, False, None, out])
    assert_bfloat16_close(got, x.prod(axis=1), rtol=2e-2)
    (got,) = run_bfloat16(kernel, "aten::prod.out", [In(x[:1]), None, Out(np.float32, ())])
    assert_bfloat16_close(got, x[:1].prod(), rtol=2e-2)
