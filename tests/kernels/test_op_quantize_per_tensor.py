from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import DTYPE_NUMBER, QUANT_DTYPES, quantize

OP = "quantized_decomposed::quantize_per_tensor.out"
TENSOR_OP = "quantized_decomposed::quantize_per_tensor.Tensor_out"
RANGES = {
    np.uint8: (0, 255),
    np.int8: (-128, 127),
    np.int16: (-32768, 32767),
    np.int32: (-(2**31), 2**31 - 1),
}


@pytest.mark.parametrize("dtype", QUANT_DTYPES)
@pytest.mark.parametrize("float_dtype", FLOATING)
def test_every_dtype_pair(kernel: KernelRunner, dtype: type, float_dtype: type) -> None:
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4).astype(float_dtype)
    low, high = RANGES[dtype]
    zero_point = 0 if dtype == np.uint8 else -3
    args = [In(x), 0.05, zero_point, low, high, DTYPE_NUMBER[dtype], Out(dtype, x.shape)]
    (out,) = kernel.run(OP, args)
    expected = quantize(x.astype(np.float32), 0.05, zero_point, low, high, dtype)
    np.testing.assert_array_equal(out, expected)


def test_halves_round_to_even_and_clamp(kernel: KernelRunner) -> None:
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 1000.0, -1000.0, np.inf, -np.inf, np.nan], np.float32)
    (out,) = kernel.run(OP, [In(x), 1.0, 0, -10, 10, 1, Out(np.int8, x.shape)])
    np.testing.assert_array_equal(out, [0, 2, 2, 0, -2, 10, -10, 10, -10, -10])


def test_tensor_overload(kernel: KernelRunner) -> None:
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    scale, zero_point = np.array([0.01]), np.array([5])
    (out,) = kernel.run(
        TENSOR_OP, [In(x), In(scale), In(zero_point), 0, 255, 0, Out(np.uint8, x.shape)]
    )
    np.testing.assert_array_equal(out, quantize(x, 0.01, 5, 0, 255, np.uint8))


def test_empty_and_dynamic_out(kernel: KernelRunner) -> None:
    (out,) = kernel.run(
        OP, [In(np.zeros((0, 3), np.float32)), 0.1, 0, -128, 127, 1, Out(np.int8, (0, 3))]
    )
    assert out.shape == (0, 3)
    x = np.ones((2, 3), np.float32)
    (out,) = kernel.run(OP, [In(x), 0.5, 1, -128, 127, 1, Out(np.int8, (4, 3), dynamic=True)])
    np.testing.assert_array_equal(out, np.full((2, 3), 3, np.int8))


@pytest.mark.parametrize(
    ("quant_min", "quant_max", "text"),
    [(-129, 127, "quant_min is below"), (-128, 128, "quant_max is above")],
)
def test_range_beyond_the_dtype_fails(
    kernel: KernelRunner, quant_min: int, quant_max: int, text: str
) -> None:
    args = [In(np.ones(3, np.float32)), 0.1, 0, quant_min, quant_max, 1, Out(np.int8, (3,))]
    assert_fails(kernel, OP, args, text)


def test_out_dtype_not_dtype_fails(kernel: KernelRunner) -> None:
    args = [In(np.ones(3, np.float32)), 0.1, 0, 0, 255, 1, Out(np.uint8, (3,))]
    assert_fails(kernel, OP, args, "out must have the dtype given by 'dtype'")


def test_integer_input_and_long_out_fail(kernel: KernelRunner) -> None:
    assert_fails(
        kernel, OP, [In(np.ones(3, np.int32)), 0.1, 0, 0, 255, 0, Out(np.uint8, (3,))], "dtype Int"
    )
    assert_fails(
        kernel,
        OP,
        [In(np.ones(3, np.float32)), 0.1, 0, 0, 255, 4, Out(np.int64, (3,))],
        "dtype Long",
    )


def test_wrong_shape_and_bad_parameter_tensors_fail(kernel: KernelRunner) -> None:
    x = In(np.ones((2, 3), np.float32))
    assert_fails(
        kernel, OP, [x, 0.1, 0, 0, 255, 0, Out(np.uint8, (3, 2))], "out has the wrong shape"
    )
    args = [x, In(np.array([0.1, 0.2])), In(np.array([0])), 0, 255, 0, Out(np.uint8, (2, 3))]
    assert_fails(kernel, TENSOR_OP, args, "scale must be a one-element Double tensor")
    args = [x, In(np.array([0.1])), In(np.array([0], np.int32)), 0, 255, 0, Out(np.uint8, (2, 3))]
    assert_fails(kernel, TENSOR_OP, args, "zero_point must be a one-element Long tensor")
