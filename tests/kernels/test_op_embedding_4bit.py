"""quantized_decomposed::embedding_4bit: the shared packed-embedding cases
(tests/kernels/embedding_cases.py) at 4 bits, and what only this width checks."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.embedding_cases import (
    WIDTH,
    Spec,
    packed_weight,
    test_bad_arguments_fail,
    test_dtype_overload_half_scales_float_out,
    test_empty_indices,
    test_index_out_of_range_fails,
    test_rows_groups_and_zero_points,
)
from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import embedding

__all__ = [
    "test_rows_groups_and_zero_points",
    "test_dtype_overload_half_scales_float_out",
    "test_empty_indices",
    "test_index_out_of_range_fails",
    "test_bad_arguments_fail",
]


@pytest.fixture
def spec() -> Spec:
    return Spec(
        "quantized_decomposed::embedding_4bit.out",
        "quantized_decomposed::embedding_4bit.dtype_out",
        4,
    )


def test_int_indices_and_signed_weights(kernel: KernelRunner, spec: Spec) -> None:
    weight = packed_weight(spec)
    scales = np.full(4, 0.5, np.float32)
    indices = np.array([[3], [0]], np.int32)
    args = [In(weight), In(scales), None, *spec.range, In(indices), Out(np.float32, (2, 1, WIDTH))]
    (out,) = kernel.run(spec.op, args)
    np.testing.assert_array_equal(
        out, embedding(weight, scales, None, indices, spec.bits, np.float32)
    )
    signed = In(packed_weight(spec, dtype=np.int8))
    args = [signed, In(scales), None, *spec.range, In(indices), Out(np.float32, (2, 1, WIDTH))]
    assert_fails(kernel, spec.op, args, "weight must be Byte (packed values)")
