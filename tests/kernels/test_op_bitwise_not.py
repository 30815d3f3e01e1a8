from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16
from tests.kernels.binary_cases import INTEGER, In, Out, assert_fails, assert_same, sample
from tests.kernels.harness import KernelRunner

OP = "aten::bitwise_not.out"


@pytest.mark.parametrize("dtype", [np.bool_] + INTEGER)
def test_bitwise_not(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (2, 5), 1)
    assert_same(kernel.run(OP, [In(x), Out(dtype, x.shape)])[0], np.invert(x))


def test_bitwise_not_zero_dim_empty_wider_out(kernel: KernelRunner) -> None:
    assert_same(
        kernel.run(OP, [In(np.array(0, np.uint8)), Out(np.uint8, ())])[0], np.array(255, np.uint8)
    )
    assert kernel.run(OP, [In(np.zeros((0,), np.int32)), Out(np.int32, (0,))])[0].shape == (0,)
    x = np.array([5, -1], np.int8)
    assert_same(kernel.run(OP, [In(x), Out(np.int64, (2,))])[0], np.invert(x).astype(np.int64))


def test_bitwise_not_errors(kernel: KernelRunner) -> None:
    assert_fails(
        kernel, OP, [In(np.array([1.0], np.float32)), Out(np.float32, (1,))], "not supported"
    )
    assert_fails(kernel, OP, [In(np.array([1], np.int32)), Out(np.int32, (2,))], "shape")


def test_bitwise_not_rejects_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([1.0, 2.0], np.float32)
    bfloat16 = partial(run_bfloat16, kernel)
    assert_fails(kernel, OP, [In(x), Out(np.float32, (2,))], "not supported", bfloat16)
