from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16
from tests.kernels.harness import ALL, INTEGER, In, KernelRunner, Out, assert_fails, assert_same

SCALAR_OP = "aten::fill.Scalar_out"
TENSOR_OP = "aten::fill.Tensor_out"


@pytest.mark.parametrize("dtype", ALL)
def test_fill_scalar(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((2, 3), dtype=dtype)
    value = True if dtype is np.bool_ else 7
    (out,) = kernel.run(SCALAR_OP, [In(x), value, Out(dtype, x.shape)])
    assert_same(out, np.full(x.shape, value, dtype=dtype))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("source", [np.float64, np.int32, np.bool_])
def test_fill_tensor_converts_as_a_cast(kernel: KernelRunner, dtype: type, source: type) -> None:
    x = np.ones((3, 2), dtype=dtype)
    value = np.array(1 if source is np.bool_ else 5, dtype=source)
    (out,) = kernel.run(TENSOR_OP, [In(x), In(value), Out(dtype, x.shape)])
    assert_same(out, np.full(x.shape, value).astype(dtype))


def test_fill_float_values_strided_and_empty(kernel: KernelRunner) -> None:
    x = np.zeros((2, 3, 4), dtype=np.float32)
    (out,) = kernel.run(SCALAR_OP, [In(x, (2, 0, 1)), -2.5, Out(np.float32, x.shape, (2, 0, 1))])
    assert_same(out, np.full(x.shape, -2.5, dtype=np.float32))
    (out,) = kernel.run(
        SCALAR_OP, [In(np.zeros(2, np.float16)), float("nan"), Out(np.float16, (2,))]
    )
    assert np.isnan(out).all()
    # A float value into an integer tensor is truncated, as torch's fill_.
    (out,) = kernel.run(SCALAR_OP, [In(np.zeros(2, np.int32)), -2.75, Out(np.int32, (2,))])
    assert_same(out, np.array([-2, -2], dtype=np.int32))
    (out,) = kernel.run(SCALAR_OP, [In(np.zeros((0, 3), np.int64)), 1, Out(np.int64, (0, 3))])
    assert out.shape == (0, 3)
    (out,) = run_bfloat16(
        kernel, SCALAR_OP, [In(np.zeros(3, np.float32)), 1.5, Out(np.float32, (3,))]
    )
    assert_same(out, np.full(3, 1.5, dtype=np.float32))


@pytest.mark.parametrize("dtype", INTEGER)
def test_fill_value_must_fit(kernel: KernelRunner, dtype: type) -> None:
    info = np.iinfo(dtype)
    x = np.zeros(2, dtype=dtype)
    (out,) = kernel.run(SCALAR_OP, [In(x), int(info.max), Out(dtype, (2,))])
    assert_same(out, np.full(2, info.max, dtype=dtype))
    if dtype is not np.int64:
        too_big = int(info.max) + 1
        assert_fails(kernel, SCALAR_OP, [In(x), too_big, Out(dtype, (2,))], "does not fit")
    assert_fails(kernel, SCALAR_OP, [In(x), 1e30, Out(dtype, (2,))], "does not fit")


def test_fill_errors_are_one_line(kernel: KernelRunner) -> None:
    x = np.zeros((2, 2), dtype=np.float32)
    half = np.zeros(2, dtype=np.float16)
    assert_fails(kernel, SCALAR_OP, [In(half), 1e6, Out(np.float16, (2,))], "does not fit")
    assert_fails(kernel, SCALAR_OP, [In(x), 1.0, Out(np.float64, (2, 2))], "self's dtype")
    assert_fails(kernel, SCALAR_OP, [In(x), 1.0, Out(np.float32, (4,))])
    value = np.array([1.0], dtype=np.float32)
    assert_fails(kernel, TENSOR_OP, [In(x), In(value), Out(np.float32, (2, 2))], "0-dim")
    scalar = np.array(1.0, dtype=np.float32)
    assert_fails(kernel, TENSOR_OP, [In(x), In(scalar), Out(np.int32, (2, 2))], "self's dtype")
