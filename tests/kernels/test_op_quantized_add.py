from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import dequantize, quantize

OP = "quantized_decomposed::add.out"


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.int64])
def test_dequantize_add_quantize(kernel: KernelRunner, dtype: type) -> None:
    a = (np.arange(12) * 21 % 120).astype(dtype).reshape(3, 4)
    b = (np.arange(12) * 7 % 100).astype(dtype).reshape(3, 4)
    args = [In(a), 0.1, 3, 0, 255, In(b), 0.05, 10, 0, 255, 0.2, 5, 0, 255, Out(dtype, a.shape)]
    (out,) = kernel.run(OP, args)
    total = dequantize(a, 0.1, 3, np.float32) + dequantize(b, 0.05, 10, np.float32)
    np.testing.assert_array_equal(out, quantize(total, 0.2, 5, 0, 255, dtype))


def test_saturates_at_the_out_range(kernel: KernelRunner) -> None:
    a = np.array([250, 0], np.uint8)
    args = [In(a), 1.0, 0, 0, 255, In(a), 1.0, 0, 0, 255, 1.0, 0, 10, 200, Out(np.uint8, (2,))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(out, [200, 10])


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    a = In(np.zeros((2, 3), np.int8))
    out = Out(np.int8, (2, 3))
    args = [a, 0.1, 0, -128, 127, a, 0.1, 0, 0, 255, 0.1, 0, 0, 255, out]
    assert_fails(kernel, OP, args, "must lie in [0, 255]")
    args = [a, 0.1, 0, 0, 255, a, 0.1, 0, 0, 255, 0.1, 0, 9, 8, out]
    assert_fails(kernel, OP, args, "must lie in [0, 255]")
    other = In(np.zeros((3, 2), np.int8))
    args = [a, 0.1, 0, 0, 255, other, 0.1, 0, 0, 255, 0.1, 0, 0, 255, out]
    assert_fails(kernel, OP, args, "the same shape")
    args = [a, 0.1, 0, 0, 255, a, 0.1, 0, 0, 255, 0.1, 0, 0, 255, Out(np.uint8, (2, 3))]
    assert_fails(kernel, OP, args, "the same dtype")
    floats = In(np.zeros((2, 3), np.float32))
    args = [floats, 0.1, 0, 0, 255, floats, 0.1, 0, 0, 255, 0.1, 0, 0, 255, Out(np.float32, (2, 3))]
    assert_fails(kernel, OP, args, "dtype Float")
