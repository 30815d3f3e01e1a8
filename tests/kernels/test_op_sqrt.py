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

OP = "aten::sqrt.out"


def reference(x: np.ndarray) -> np.ndarray:
    return np.sqrt(x)


@pytest.mark.parametrize("dtype", ALL)
def test_sqrt_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    # Integer and bool tensors give Float, as in torch.
    check_float_op(kernel, OP, reference, dtype)


def test_sqrt_zero_dim_empty_strided_and_double_out(kernel: KernelRunner) -> None:
    check_float_op_shapes(kernel, OP, reference)


def test_sqrt_errors_are_one_line(kernel: KernelRunner) -> None:
    check_float_op_errors(kernel, OP)


def test_sqrt_keeps_the_sign_of_zero_and_nans_negatives(kernel: KernelRunner) -> None:
    out = run_unary(kernel, OP, np.array([-0.0, -1.0, 4.0], dtype=np.float32), np.float32)
    assert out[0] == 0.0 and np.signbit(out[0]) and np.isnan(out[1]) and out[2] == 2.0


def test_sqrt_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, reference)
