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
)

OP = "aten::cos.out"


def reference(x: np.ndarray) -> np.ndarray:
    return np.cos(x)


@pytest.mark.parametrize("dtype", ALL)
def test_cos_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    # Integer and bool tensors give Float, as in torch.
    check_float_op(kernel, OP, reference, dtype)


def test_cos_zero_dim_empty_strided_and_double_out(kernel: KernelRunner) -> None:
    check_float_op_shapes(kernel, OP, reference)


def test_cos_errors_are_one_line(kernel: KernelRunner) -> None:
    check_float_op_errors(kernel, OP)


def test_cos_bfloat16(kernel: KernelRunner) -> None:
    check_bfloat16(kernel, OP, reference)
