from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import dequantize_per_channel

OP = "quantized_decomposed::dequantize_per_token.out"


def test_one_scale_per_token(kernel: KernelRunner) -> None:
    q = (np.arange(24) - 12).astype(np.int8).reshape(2, 3, 4)
    scales = np.linspace(0.01, 0.06, 6).reshape(2, 3, 1)
    zero_points = np.arange(-3, 3).reshape(2, 3, 1)
    for out_dtype, number in [(np.float32, 6), (np.float16, 5), (np.float64, 7)]:
        args = [In(q), In(scales), In(zero_points), -128, 127, 1, number]
        (out,) = kernel.run(OP, [*args, Out(out_dtype, q.shape)])
        expected = dequantize_per_channel(q.reshape(6, 4), scales, zero_points, 0, out_dtype)
        np.testing.assert_array_equal(out, expected.reshape(q.shape))


def test_float_scales_and_int_zero_points(kernel: KernelRunner) -> None:
    q = np.array([[0, 255], [10, 20]], np.uint8)
    scales, zero_points = np.array([0.5, 0.25], np.float32), np.array([1, 2], np.int32)
    args = [In(q), In(scales), In(zero_points), 0, 255, 0, 6, Out(np.float32, q.shape)]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(
        out, dequantize_per_channel(q, scales, zero_points, 0, np.float32)
    )


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    q = In(np.zeros((2, 3), np.int8))
    scales, zero_points = In(np.array([0.1, 0.1])), In(np.array([0, 0]))
    args = [q, scales, zero_points, -128, 127, 1, 7, Out(np.float32, (2, 3))]
    assert_fails(kernel, OP, args, "out must have the dtype given by 'out_dtype'")
    args = [q, In(np.array([0.1])), zero_points, -128, 127, 1, 6, Out(np.float32, (2, 3))]
    assert_fails(kernel, OP, args, "scales must be")
    args = [q, scales, zero_points, -128, 127, 0, 6, Out(np.float32, (2, 3))]
    assert_fails(kernel, OP, args, "input must have the dtype given by 'dtype'")
