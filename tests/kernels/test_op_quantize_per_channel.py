from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import DTYPE_NUMBER, QUANT_DTYPES, quantize_per_channel

OP = "quantized_decomposed::quantize_per_channel.out"
SCALES = np.array([0.01, 0.05, 0.2])
ZERO_POINTS = np.array([0, 3, 7])


def _x(shape: tuple[int, ...]) -> np.ndarray:
    return np.linspace(-2, 2, int(np.prod(shape)), dtype=np.float32).reshape(shape)


@pytest.mark.parametrize("dtype", QUANT_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_every_axis_and_dtype(kernel: KernelRunner, dtype: type, axis: int) -> None:
    shape = [2, 4, 5]
    shape[axis] = 3
    x = _x(tuple(shape))
    info = np.iinfo(dtype)
    low, high = max(info.min, -(2**31)), min(info.max, 2**31 - 1)
    args = [In(x), In(SCALES), In(ZERO_POINTS), axis, low, high, DTYPE_NUMBER[dtype]]
    (out,) = kernel.run(OP, [*args, Out(dtype, x.shape)])
    expected = quantize_per_channel(x, SCALES, ZERO_POINTS, axis % 3, low, high, dtype)
    np.testing.assert_array_equal(out, expected)


def test_half_input_and_channels_last(kernel: KernelRunner) -> None:
    x = _x((1, 3, 2, 2))
    args = [In(SCALES), In(ZERO_POINTS), 1, -128, 127, 1]
    (out,) = kernel.run(OP, [In(x.astype(np.float16)), *args, Out(np.int8, x.shape)])
    expected = quantize_per_channel(
        x.astype(np.float16), SCALES, ZERO_POINTS, 1, -128, 127, np.int8
    )
    np.testing.assert_array_equal(out, expected)
    nhwc = (0, 2, 3, 1)
    (out,) = kernel.run(OP, [In(x, nhwc), *args, Out(np.int8, x.shape, nhwc)])
    np.testing.assert_array_equal(
        out, quantize_per_channel(x, SCALES, ZERO_POINTS, 1, -128, 127, np.int8)
    )


@pytest.mark.parametrize("axis", [2, -3])
def test_axis_out_of_range_fails(kernel: KernelRunner, axis: int) -> None:
    args = [In(_x((3, 2))), In(SCALES), In(ZERO_POINTS), axis, -128, 127, 1, Out(np.int8, (3, 2))]
    assert_fails(kernel, OP, args, "axis is out of range")


def test_bad_parameters_fail(kernel: KernelRunner) -> None:
    x = In(_x((3, 2)))
    out = Out(np.int8, (3, 2))
    scales = In(SCALES.astype(np.float32))
    assert_fails(kernel, OP, [x, scales, In(ZERO_POINTS), 0, -128, 127, 1, out], "scales must be")
    short = In(SCALES[:2])
    assert_fails(kernel, OP, [x, short, In(ZERO_POINTS), 0, -128, 127, 1, out], "scales must be")
    zeros = In(ZERO_POINTS.astype(np.int32))
    assert_fails(kernel, OP, [x, In(SCALES), zeros, 0, -128, 127, 1, out], "zero_points must be")
    args = [x, In(SCALES), In(ZERO_POINTS), 0, -128, 128, 1, out]
    assert_fails(kernel, OP, args, "quant_max is above")
