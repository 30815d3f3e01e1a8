from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import ALL, In, Out, assert_fails, assert_same, sample
from tests.kernels.harness import KernelRunner

OP = "aten::logical_not.out"


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("out_dtype", [np.bool_, np.float32, np.int8])
def test_logical_not_any_dtype(kernel: KernelRunner, dtype: type, out_dtype: type) -> None:
    x = sample(dtype, (2, 5), 1)
    assert_same(
        kernel.run(OP, [In(x), Out(out_dtype, x.shape)])[0], np.logical_not(x).astype(out_dtype)
    )


def test_logical_not_nan_zero_dim_empty(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -0.0, np.inf], np.float16)
    assert_same(kernel.run(OP, [In(x), Out(np.bool_, (3,))])[0], np.array([False, True, False]))
    assert_same(kernel.run(OP, [In(np.array(0, np.int64)), Out(np.bool_, ())])[0], np.array(True))
    assert kernel.run(OP, [In(np.zeros((0, 2), np.float32)), Out(np.bool_, (0, 2))])[0].shape == (
        0,
        2,
    )


def test_logical_not_errors(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.array([1, 0], np.int32)), Out(np.bool_, (3,))], "shape")


def test_logical_not_bfloat16(kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.array([1.5, 0.0, np.nan, -0.0, 1e-30]))
    (got,) = run_bfloat16(kernel, OP, [In(x), Out(np.bool_, (5,))])
    assert_same(got, np.logical_not(x))
    (got,) = run_bfloat16(kernel, OP, [In(x), Out(np.float32, (5,))])
    assert_same(got, np.logical_not(x).astype(np.float32))
