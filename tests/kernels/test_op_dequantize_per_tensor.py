from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import DTYPE_NUMBER, QUANT_DTYPES, dequantize

OP = "quantized_decomposed::dequantize_per_tensor.out"
TENSOR_OP = "quantized_decomposed::dequantize_per_tensor.Tensor_out"


@pytest.mark.parametrize("dtype", QUANT_DTYPES)
@pytest.mark.parametrize("float_dtype", FLOATING)
def test_every_dtype_pair(kernel: KernelRunner, dtype: type, float_dtype: type) -> None:
    q = (np.arange(24) * 7 % 200).astype(dtype).reshape(4, 6)
    args = [In(q), 0.25, 3, -1000, 1000, DTYPE_NUMBER[dtype], None, Out(float_dtype, q.shape)]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(out, dequantize(q, 0.25, 3, float_dtype))


def test_out_dtype_given_and_tensor_overload(kernel: KernelRunner) -> None:
    q = np.array([[-128, 0, 127]], np.int8)
    (out,) = kernel.run(OP, [In(q), 0.5, -1, -128, 127, 1, 6, Out(np.float32, q.shape)])
    np.testing.assert_array_equal(out, dequantize(q, 0.5, -1, np.float32))
    args = [
        In(q),
        In(np.array([0.5])),
        In(np.array([-1])),
        -128,
        127,
        1,
        None,
        Out(np.float32, q.shape),
    ]
    (out,) = kernel.run(TENSOR_OP, args)
    np.testing.assert_array_equal(out, dequantize(q, 0.5, -1, np.float32))


def test_int32_far_from_the_zero_point_does_not_overflow(kernel: KernelRunner) -> None:
    q = np.array([2**31 - 1, -(2**31)], np.int32)
    (out,) = kernel.run(
        OP, [In(q), 1.0, -(2**31), -(2**31), 2**31 - 1, 3, None, Out(np.float64, q.shape)]
    )
    # 2**32 - 1 is exact in int64 and rounds once, to float32's 2**32.
    np.testing.assert_array_equal(out, [2.0**32, 0.0])


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    q = In(np.zeros(3, np.int8))
    assert_fails(
        kernel, OP, [q, 0.5, 0, 0, 255, 0, None, Out(np.float32, (3,))], "input must have the dtype"
    )
    assert_fails(
        kernel, OP, [q, 0.5, 0, -128, 127, 1, 7, Out(np.float32, (3,))], "given by 'out_dtype'"
    )
    assert_fails(
        kernel, OP, [q, 0.5, 0, 5, 4, 1, None, Out(np.float32, (3,))], "quant_min is greater"
    )
    assert_fails(kernel, OP, [q, 0.5, 0, -128, 127, 1, None, Out(np.int32, (3,))], "dtype Int")
    assert_fails(kernel, OP, [q, 0.5, 0, -128, 127, 1, None, Out(np.float32, (2,))], "wrong shape")
    longs = In(np.zeros(3, np.int64))
    assert_fails(kernel, OP, [longs, 0.5, 0, 0, 9, 4, None, Out(np.float32, (3,))], "dtype Long")
    args = [
        q,
        In(np.array([0.5], np.float32)),
        In(np.array([0])),
        -128,
        127,
        1,
        None,
        Out(np.float32, (3,)),
    ]
    assert_fails(kernel, TENSOR_OP, args, "scale must be a one-element Double tensor")
