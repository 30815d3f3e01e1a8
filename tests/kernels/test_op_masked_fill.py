from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import ALL, In, Out, assert_fails, assert_same, sample
from tests.kernels.harness import KernelRunner

OP = "aten::masked_fill.Scalar_out"


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("value", [1, True, 2.0])
def test_masked_fill_broadcasts_mask(kernel: KernelRunner, dtype: type, value: object) -> None:
    x = sample(dtype, (3, 4), 1)
    mask = np.array([True, False, False, True])
    if dtype is np.bool_ and value == 2.0:  # torch's checked conversion: 2 overflows bool
        assert_fails(kernel, OP, [In(x), In(mask), value, Out(dtype, (3, 4))], "overflow")
        return
    out = kernel.run(OP, [In(x), In(mask), value, Out(dtype, (3, 4))])[0]
    assert_same(out, np.where(mask, np.array(value).astype(dtype), x))


def test_masked_fill_broadcasts_self_zero_dim_empty(kernel: KernelRunner) -> None:
    # Out-of-place masked_fill broadcasts self to the mask too.
    x = np.array([1.0, 2.0], np.float32)
    mask = np.array([[True], [False]])
    assert_same(
        kernel.run(OP, [In(x), In(mask), np.nan, Out(np.float32, (2, 2))])[0],
        np.array([[np.nan, np.nan], [1.0, 2.0]], np.float32),
    )
    z = np.array(5, np.int8)
    assert_same(
        kernel.run(OP, [In(z), In(np.array(True)), -3, Out(np.int8, ())])[0], np.array(-3, np.int8)
    )
    assert kernel.run(
        OP, [In(np.zeros((0, 3), np.int64)), In(np.ones(3, bool)), 1, Out(np.int64, (0, 3))]
    )[0].shape == (0, 3)
    # uint8 takes -1 (wrapping to 255) as torch's conversion does.
    u = np.array([1, 2], np.uint8)
    assert_same(
        kernel.run(OP, [In(u), In(np.array([True, False])), -1, Out(np.uint8, (2,))])[0],
        np.array([255, 2], np.uint8),
    )
    # A float value into an integer tensor truncates; inf fits a float16 tensor.
    i = np.array([1, 2], np.int32)
    assert_same(
        kernel.run(OP, [In(i), In(np.array([True, False])), 2.7, Out(np.int32, (2,))])[0],
        np.array([2, 2], np.int32),
    )
    h = np.array([1, 2], np.float16)
    assert_same(
        kernel.run(OP, [In(h), In(np.array([False, True])), -np.inf, Out(np.float16, (2,))])[0],
        np.array([1, -np.inf], np.float16),
    )


def test_masked_fill_errors(kernel: KernelRunner) -> None:
    x = np.array([1, 2], np.int8)
    m = np.array([True, False])
    assert_fails(kernel, OP, [In(x), In(m), 300, Out(np.int8, (2,))], "overflow")
    assert_fails(
        kernel, OP, [In(np.ones(2, np.uint8)), In(m), -0.5, Out(np.uint8, (2,))], "overflow"
    )
    assert_fails(kernel, OP, [In(x), In(m), np.nan, Out(np.int8, (2,))], "overflow")
    assert_fails(
        kernel, OP, [In(np.ones(2, np.float16)), In(m), 1e6, Out(np.float16, (2,))], "overflow"
    )
    assert_fails(
        kernel, OP, [In(x), In(np.array([1, 0], np.uint8)), 1, Out(np.int8, (2,))], "not supported"
    )
    assert_fails(kernel, OP, [In(x), In(m), 1, Out(np.int32, (2,))], "dtype")
    assert_fails(kernel, OP, [In(x), In(np.ones(3, bool)), 1, Out(np.int8, (2,))], "broadcast")


def test_masked_fill_bfloat16(kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.array([[1.5, -2.0, np.nan], [3.0, np.inf, 0.3]]))
    mask = np.array([True, False, True])
    (got,) = run_bfloat16(kernel, OP, [In(x), In(mask), 2.5, Out(np.float32, (2, 3))])
    assert_same(got, np.where(mask, np.float32(2.5), x))
