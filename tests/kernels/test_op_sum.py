from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import (
    REAL,
    In,
    KernelRunner,
    Out,
    assert_fails,
    scalar_type,
)

OP = "aten::sum.IntList_out"


def _dtype_arg(dtype: type) -> int:
    return scalar_type(dtype).number


@pytest.mark.parametrize("dtype", [*REAL, np.bool_])
def test_sum_over_one_dim(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    (out,) = kernel.run(
        OP,
        [In(x), IntList((1,)), False, None, Out(dtype if dtype != np.bool_ else np.int64, (2, 4))],
    )
    expected = x.sum(axis=1, dtype=np.int64 if dtype == np.bool_ else None)
    np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=1e-3)


def test_sum_all_dims_none_and_empty(kernel: KernelRunner) -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    (out,) = kernel.run(OP, [In(x), None, False, None, Out(np.float32, ())])
    assert out.shape == () and out == x.sum()
    (out,) = kernel.run(OP, [In(x), IntList(()), True, None, Out(np.float32, (1, 1))])
    np.testing.assert_array_equal(out, x.sum(keepdims=True))


def test_sum_several_negative_dims_keepdim(kernel: KernelRunner) -> None:
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 5)).astype(np.float64)
    (out,) = kernel.run(OP, [In(x), IntList((-1, 1)), True, None, Out(np.float64, (2, 1, 4, 1))])
    np.testing.assert_allclose(out, x.sum(axis=(1, 3), keepdims=True))


def test_sum_int_overflow_wraps_and_dtype_arg(kernel: KernelRunner) -> None:
    x = np.array([[100, 100, 100]], dtype=np.int8)
    (out,) = kernel.run(OP, [In(x), IntList((1,)), False, None, Out(np.int8, (1,))])
    assert out[0] == np.int8(44)  # 300 wraps
    (out,) = kernel.run(
        OP, [In(x), IntList((1,)), False, _dtype_arg(np.int64), Out(np.int64, (1,))]
    )
    assert out[0] == 300
    (out,) = kernel.run(
        OP, [In(x), IntList((1,)), False, _dtype_arg(np.float32), Out(np.float32, (1,))]
    )
    assert out[0] == 300.0


def test_sum_nan_inf_and_empty(kernel: KernelRunner) -> None:
    x = np.array([[1.0, np.nan], [np.inf, 1.0], [np.inf, -np.inf]], dtype=np.float32)
    (out,) = kernel.run(OP, [In(x), IntList((1,)), False, None, Out(np.float32, (3,))])
    np.testing.assert_array_equal(out, x.sum(axis=1))
    e = np.zeros((3, 0), dtype=np.float32)
    (out,) = kernel.run(OP, [In(e), IntList((1,)), False, None, Out(np.float32, (3,))])
    np.testing.assert_array_equal(out, np.zeros(3, np.float32))
    (out,) = kernel.run(OP, [In(e), IntList((0,)), False, None, Out(np.float32, (0,))])
    assert out.shape == (0,)


def test_sum_zero_dim(kernel: KernelRunner) -> None:
    x = np.array(2.5, dtype=np.float32)
    (out,) = kernel.run(OP, [In(x), IntList((0,)), False, None, Out(np.float32, ())])
    assert out == 2.5


def test_sum_half_accumulates_in_float(kernel: KernelRunner) -> None:
    x = np.full((4096,), 1.0, dtype=np.float16)
    (out,) = kernel.run(OP, [In(x), None, False, None, Out(np.float16, ())])
    assert out == np.float16(4096)


def test_sum_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    for args in (
        [In(x), IntList((2,)), False, None, Out(np.float32, (2,))],
        [In(x), IntList((1, 1)), False, None, Out(np.float32, (2,))],
        [In(x), IntList((1,)), False, None, Out(np.float32, (3,))],
        [In(x), IntList((1,)), False, _dtype_arg(np.float64), Out(np.float32, (2,))],
    ):
        assert_fails(kernel, OP, args)


def test_sum_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(70)
    (x,) = bfloat16_inputs(rng.standard_normal((3, 8)) * 3)
    (got,) = run_bfloat16(kernel, OP, [In(x), IntList((1,)), False, None, Out(np.float32, (3,))])
    assert_bfloat16_close(got, x.sum(axis=1), atol=3e-2)
    (got,) = run_bfloat16(kernel, OP, [In(x), None, True, None, Out(np.float32, (1, 1))])
    assert_bfloat16_close(got, x.sum(keepdims=True), atol=1e-1)
