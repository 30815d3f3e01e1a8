from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import KernelRunner
from tests.kernels.unary_cases import (
    ALL,
    check_bfloat16,
    check_float_op,
    check_float_op_errors,
    check_float_op_shapes,
    run_unary,
)

OP = "aten::reciprocal.out"


def reference(x: np.ndarray) -> np.ndarray:
    return 1.0 / x


@pytest.mark.parametrize("dtype", ALL)
def test_reciprocal_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    # Integer and bool tensors give Float, as in torch.
    check_float_op(kernel, OP, reference, dtype)


def test_reciprocal_zero_dim_empty_strided_and_double_out(kernel: KernelRunner) -> None:
    check_float_op_shapes(kernel, OP, reference)


def test_reciprocal_errors_are_one_line(kernel: KernelRunner) -> None:
    check_float_op_errors(kernel, OP)


def test_reciprocal_of_zeros_is_signed_infinity(kernel: KernelRunner) -> None:
    out = run_unary(kernel, OP, np.array([0, 2, -4], dtype=np.int64), np.float32)
    np.testing.assert_array_equal(out, np.array([np.inf, 0.5, -0.25], dtype=np.float32))
    out = run_unary(kernel, OP, np.array([-0.0, 0.0], dtype=np.float16), np.float16)
    np.testing.assert_array_equal(out, np.array([-np.inf, np.inf], dtype=np.float16))


def test_reciprocal_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, reference)
