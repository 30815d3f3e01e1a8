from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import embedding

OP = "quantized_decomposed::embedding_byte.out"
DTYPE_OP = "quantized_decomposed::embedding_byte.dtype_out"
BITS = 8
RANGE = {8: (-128, 127), 4: (-8, 7), 2: (-2, 1)}[BITS]
WIDTH = 8  # values per row


def _weight(rows: int = 4, dtype: type = np.uint8) -> np.ndarray:
    packed = np.arange(rows * WIDTH * BITS // 8) * 37 % 256
    return packed.astype(np.uint8).view(dtype).reshape(rows, WIDTH * BITS // 8)


@pytest.mark.parametrize("groups", [1, 2, 4])
@pytest.mark.parametrize("float_dtype", [np.float32, np.float16])
def test_rows_groups_and_zero_points(kernel: KernelRunner, groups: int, float_dtype: type) -> None:
    weight = _weight()
    shape = (4, groups) if groups > 1 else (4,)
    scales = (np.arange(np.prod(shape)).reshape(shape) * 0.01 + 0.05).astype(float_dtype)
    zero_points = (np.arange(np.prod(shape)).reshape(shape) % 3 - 1).astype(float_dtype)
    indices = np.array([[3, 0, 1], [1, 1, 2]])
    args = [In(weight), In(scales), In(zero_points), *RANGE, In(indices)]
    (out,) = kernel.run(OP, [*args, Out(float_dtype, (2, 3, WIDTH))])
    expected = embedding(weight, scales, zero_points, indices, BITS, float_dtype)
    np.testing.assert_array_equal(out, expected)


def test_dtype_overload_half_scales_float_out(kernel: KernelRunner) -> None:
    weight = _weight()
    scales = np.array([0.5, 0.25, 0.125, 1.0], np.float16)
    indices = np.array([2, 0])
    args = [In(weight), In(scales), None, *RANGE, In(indices), 6, Out(np.float32, (2, WIDTH))]
    (out,) = kernel.run(DTYPE_OP, args)
    np.testing.assert_array_equal(out, embedding(weight, scales, None, indices, BITS, np.float32))
    args = [In(weight), In(scales), None, *RANGE, In(indices), None, Out(np.float16, (2, WIDTH))]
    (out,) = kernel.run(DTYPE_OP, args)
    np.testing.assert_array_equal(out, embedding(weight, scales, None, indices, BITS, np.float16))


def test_empty_indices(kernel: KernelRunner) -> None:
    scales = np.ones(4, np.float32)
    args = [In(_weight()), In(scales), None, *RANGE, In(np.zeros((0,), np.int64))]
    (out,) = kernel.run(OP, [*args, Out(np.float32, (0, WIDTH))])
    assert out.shape == (0, WIDTH)


@pytest.mark.parametrize("bad", [4, -1])
def test_index_out_of_range_fails(kernel: KernelRunner, bad: int) -> None:
    args = [In(_weight()), In(np.ones(4, np.float32)), None, *RANGE, In(np.array([0, bad]))]
    assert_fails(kernel, OP, [*args, Out(np.float32, (2, WIDTH))], "an index is out of range")


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    weight, scales, index = In(_weight()), In(np.ones(4, np.float32)), In(np.array([1]))
    out = Out(np.float32, (1, WIDTH))
    three_groups = In(np.ones((4, 3), np.float32))
    assert_fails(kernel, OP, [weight, three_groups, None, *RANGE, index, out], "must divide")
    short = In(np.ones(3, np.float32))
    assert_fails(kernel, OP, [weight, short, None, *RANGE, index, out], "one row per weight row")
    half_scales = In(np.ones(4, np.float16))
    assert_fails(kernel, OP, [weight, half_scales, None, *RANGE, index, out], "the out dtype")
    zero_points = In(np.zeros(4, np.float16))
    args = [weight, scales, zero_points, *RANGE, index, out]
    assert_fails(kernel, OP, args, "weight_zero_points must have the out dtype")
    args = [weight, scales, In(np.zeros((4, 1), np.float32)), *RANGE, index, out]
    assert_fails(kernel, OP, args, "the sizes of weight_scales")
    assert_fails(kernel, OP, [weight, scales, None, 1, 0, index, out], "greater than")
    args = [weight, scales, None, *RANGE, index, 5, Out(np.float32, (1, WIDTH))]
    assert_fails(kernel, DTYPE_OP, args, "out must have the dtype given by 'dtype'")
    flat = In(np.zeros(8, np.uint8))
    assert_fails(kernel, OP, [flat, scales, None, *RANGE, index, out], "2-D")


def test_signed_weights_and_index_dtypes(kernel: KernelRunner) -> None:
    weight = _weight(dtype=np.int8)
    scales = np.full(4, 0.5, np.float32)
    indices = np.array([0, 3])
    args = [In(weight), In(scales), None, *RANGE, In(indices), Out(np.float32, (2, WIDTH))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(out, embedding(weight, scales, None, indices, BITS, np.float32))
    args = [In(weight), In(scales), None, *RANGE, In(indices.astype(np.int32))]
    assert_fails(kernel, OP, [*args, Out(np.float32, (2, WIDTH))], "indices must be Long")
