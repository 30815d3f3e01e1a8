"""The cases embedding_byte, embedding_4bit and embedding_2bit share (one packing rule, three
widths): each operator's test file names its `spec` fixture and imports these tests."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import embedding

WIDTH = 8  # values per row


@dataclass(frozen=True)
class Spec:
    op: str
    dtype_op: str
    bits: int

    @property
    def range(self) -> tuple[int, int]:
        """The quant_min and quant_max of a value of this width."""
        return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1


def packed_weight(spec: Spec, rows: int = 4, dtype: type = np.uint8) -> np.ndarray:
    """`rows` rows of WIDTH values packed at `spec.bits` bits each."""
    data = np.arange(rows * WIDTH * spec.bits // 8) * 37 % 256
    return data.astype(np.uint8).view(dtype).reshape(rows, WIDTH * spec.bits // 8)


@pytest.mark.parametrize("groups", [1, 2, 4])
@pytest.mark.parametrize("float_dtype", [np.float32, np.float16])
def test_rows_groups_and_zero_points(
    kernel: KernelRunner, spec: Spec, groups: int, float_dtype: type
) -> None:
    weight = packed_weight(spec)
    shape = (4, groups) if groups > 1 else (4,)
    scales = (np.arange(np.prod(shape)).reshape(shape) * 0.01 + 0.05).astype(float_dtype)
    zero_points = (np.arange(np.prod(shape)).reshape(shape) % 3 - 1).astype(float_dtype)
    indices = np.array([[3, 0, 1], [1, 1, 2]])
    args = [In(weight), In(scales), In(zero_points), *spec.range, In(indices)]
    (out,) = kernel.run(spec.op, [*args, Out(float_dtype, (2, 3, WIDTH))])
    expected = embedding(weight, scales, zero_points, indices, spec.bits, float_dtype)
    np.testing.assert_array_equal(out, expected)


def test_dtype_overload_half_scales_float_out(kernel: KernelRunner, spec: Spec) -> None:
    weight = packed_weight(spec)
    scales = np.array([0.5, 0.25, 0.125, 1.0], np.float16)
    indices = np.array([2, 0])
    args = [In(weight), In(scales), None, *spec.range, In(indices), 6, Out(np.float32, (2, WIDTH))]
    (out,) = kernel.run(spec.dtype_op, args)
    np.testing.assert_array_equal(
        out, embedding(weight, scales, None, indices, spec.bits, np.float32)
    )
    args = [
        In(weight),
        In(scales),
        None,
        *spec.range,
        In(indices),
        None,
        Out(np.float16, (2, WIDTH)),
    ]
    (out,) = kernel.run(spec.dtype_op, args)
    np.testing.assert_array_equal(
        out, embedding(weight, scales, None, indices, spec.bits, np.float16)
    )


def test_empty_indices(kernel: KernelRunner, spec: Spec) -> None:
    scales = np.ones(4, np.float32)
    args = [In(packed_weight(spec)), In(scales), None, *spec.range, In(np.zeros((0,), np.int64))]
    (out,) = kernel.run(spec.op, [*args, Out(np.float32, (0, WIDTH))])
    assert out.shape == (0, WIDTH)


@pytest.mark.parametrize("bad", [4, -1])
def test_index_out_of_range_fails(kernel: KernelRunner, spec: Spec, bad: int) -> None:
    args = [
        In(packed_weight(spec)),
        In(np.ones(4, np.float32)),
        None,
        *spec.range,
        In(np.array([0, bad])),
    ]
    assert_fails(kernel, spec.op, [*args, Out(np.float32, (2, WIDTH))], "an index is out of range")


def test_bad_arguments_fail(kernel: KernelRunner, spec: Spec) -> None:
    weight, scales, index = In(packed_weight(spec)), In(np.ones(4, np.float32)), In(np.array([1]))
    out = Out(np.float32, (1, WIDTH))
    three_groups = In(np.ones((4, 3), np.float32))
    assert_fails(
        kernel, spec.op, [weight, three_groups, None, *spec.range, index, out], "must divide"
    )
    short = In(np.ones(3, np.float32))
    assert_fails(
        kernel, spec.op, [weight, short, None, *spec.range, index, out], "one row per weight row"
    )
    half_scales = In(np.ones(4, np.float16))
    assert_fails(
        kernel, spec.op, [weight, half_scales, None, *spec.range, index, out], "the out dtype"
    )
    zero_points = In(np.zeros(4, np.float16))
    args = [weight, scales, zero_points, *spec.range, index, out]
    assert_fails(kernel, spec.op, args, "weight_zero_points must have the out dtype")
    args = [weight, scales, In(np.zeros((4, 1), np.float32)), *spec.range, index, out]
    assert_fails(kernel, spec.op, args, "the sizes of weight_scales")
    assert_fails(kernel, spec.op, [weight, scales, None, 1, 0, index, out], "greater than")
    args = [weight, scales, None, *spec.range, index, 5, Out(np.float32, (1, WIDTH))]
    assert_fails(kernel, spec.dtype_op, args, "out must have the dtype given by 'dtype'")
    flat = In(np.zeros(8, np.uint8))
    assert_fails(kernel, spec.op, [flat, scales, None, *spec.range, index, out], "2-D")
