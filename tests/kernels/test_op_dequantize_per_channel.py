from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import DTYPE_NUMBER, QUANT_DTYPES, dequantize_per_channel

OP = "quantized_decomposed::dequantize_per_channel.out"
SCALES = np.array([0.01, 0.05, 0.2])
ZERO_POINTS = np.array([0, 3, 7])


@pytest.mark.parametrize("dtype", QUANT_DTYPES)
@pytest.mark.parametrize("float_dtype", FLOATING)
def test_every_dtype_pair(kernel: KernelRunner, dtype: type, float_dtype: type) -> None:
    q = (np.arange(24) % 100).astype(dtype).reshape(2, 3, 4)
    args = [In(q), In(SCALES), In(ZERO_POINTS), 1, -1000, 1000, DTYPE_NUMBER[dtype], None]
    (out,) = kernel.run(OP, [*args, Out(float_dtype, q.shape)])
    np.testing.assert_array_equal(
        out, dequantize_per_channel(q, SCALES, ZERO_POINTS, 1, float_dtype)
    )


@pytest.mark.parametrize("axis", [0, -1])
def test_float_scales_int_or_no_zero_points(kernel: KernelRunner, axis: int) -> None:
    q = np.arange(-4, 5, dtype=np.int8).reshape(3, 3)
    scales = SCALES.astype(np.float32)
    zero_points = ZERO_POINTS.astype(np.int32)
    args = [In(q), In(scales), In(zero_points), axis, -128, 127, 1, 6, Out(np.float32, q.shape)]
    (out,) = kernel.run(OP, args)
    expected = dequantize_per_channel(q, scales, zero_points, axis % 2, np.float32)
    np.testing.assert_array_equal(out, expected)
    args = [In(q), In(scales), None, axis, -128, 127, 1, None, Out(np.float32, q.shape)]
    (out,) = kernel.run(OP, args)
    expected = dequantize_per_channel(q, scales, np.zeros(3, np.int64), axis % 2, np.float32)
    np.testing.assert_array_equal(out, expected)


def test_channels_last(kernel: KernelRunner) -> None:
    q = (np.arange(12) - 6).astype(np.int8).reshape(1, 3, 2, 2)
    nhwc = (0, 2, 3, 1)
    args = [In(q, nhwc), In(SCALES), In(ZERO_POINTS), 1, -128, 127, 1, None]
    (out,) = kernel.run(OP, [*args, Out(np.float32, q.shape, nhwc)])
    np.testing.assert_array_equal(
        out, dequantize_per_channel(q, SCALES, ZERO_POINTS, 1, np.float32)
    )


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    q = In(np.zeros((3, 2), np.int8))
    out = Out(np.float32, (3, 2))
    rest = [-128, 127, 1, None, out]
    assert_fails(kernel, OP, [q, In(SCALES), None, 2, *rest], "axis is out of range")
    assert_fails(kernel, OP, [q, In(SCALES[:2]), None, 0, *rest], "scales must be")
    bad_zero_points = In(ZERO_POINTS.astype(np.int16))
    assert_fails(kernel, OP, [q, In(SCALES), bad_zero_points, 0, *rest], "zero_points must be")
    args = [q, In(SCALES), None, 0, -128, 127, 0, None, out]
    assert_fails(kernel, OP, args, "input must have the dtype")
    args = [q, In(SCALES), None, 0, 9, 8, 1, None, out]
    assert_fails(kernel, OP, args, "quant_min is greater")
