from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import quantize_per_channel

OP = "quantized_decomposed::quantize_per_token.out"


def test_one_scale_per_token(kernel: KernelRunner) -> None:
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)
    scales = np.linspace(0.01, 0.06, 6)
    zero_points = np.arange(-3, 3)
    args = [In(x), In(scales.reshape(2, 3, 1)), In(zero_points.reshape(2, 3, 1)), -128, 127, 1]
    (out,) = kernel.run(OP, [*args, Out(np.int8, x.shape)])
    expected = quantize_per_channel(x.reshape(6, 4), scales, zero_points, 0, -128, 127, np.int8)
    np.testing.assert_array_equal(out, expected.reshape(x.shape))


def test_permuted_input_and_1_dim(kernel: KernelRunner) -> None:
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    scales, zero_points = np.array([0.01, 0.02, 0.03]), np.array([0, 1, 2])
    args = [In(x, (1, 0)), In(scales), In(zero_points), 0, 255, 0, Out(np.uint8, x.shape)]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(
        out, quantize_per_channel(x, scales, zero_points, 0, 0, 255, np.uint8)
    )
    row = np.array([0.5, -0.5, 1.5], np.float32)
    args = [In(row), In(np.array([0.5])), In(np.array([0])), -8, 7, 1, Out(np.int8, (3,))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(out, [1, -1, 3])


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    x = In(np.ones((2, 3), np.float32))
    out = Out(np.int8, (2, 3))
    args = [x, In(np.array([0.1])), In(np.array([0, 0])), -128, 127, 1, out]
    assert_fails(kernel, OP, args, "scales must be")
    args = [x, In(np.array([0.1, 0.1])), In(np.array([0, 0], np.int32)), -128, 127, 1, out]
    assert_fails(kernel, OP, args, "zero_points must be")
    scalar = In(np.array(1.0, np.float32))
    args = [scalar, In(np.array([0.1])), In(np.array([0])), -128, 127, 1, Out(np.int8, ())]
    assert_fails(kernel, OP, args, "at least one dim")


def test_parameters_stored_permuted(kernel: KernelRunner) -> None:
    """Scales and zero points of shape (2, 3, 1) kept in dim order (1, 0, 2): token t's
    parameters are read at their row-major position, not at memory offset t."""
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)
    scales = np.linspace(0.01, 0.06, 6).reshape(2, 3, 1)
    zero_points = np.arange(-3, 3).reshape(2, 3, 1)
    permuted = (1, 0, 2)
    args = [In(x), In(scales, permuted), In(zero_points, permuted), -128, 127, 1]
    (out,) = kernel.run(OP, [*args, Out(np.int8, x.shape)])
    expected = quantize_per_channel(
        x.reshape(6, 4), scales.ravel(), zero_points.ravel(), 0, -128, 127, np.int8
    )
    np.testing.assert_array_equal(out, expected.reshape(x.shape))
