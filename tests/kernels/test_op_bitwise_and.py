from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16
from tests.kernels.binary_cases import (
    INTEGER,
    In,
    Out,
    assert_fails,
    assert_same,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelFailed, KernelRunner

OP = "aten::bitwise_and.Tensor_out"
SCALAR_OP = "aten::bitwise_and.Scalar_out"
BITS = [np.bool_] + INTEGER


@pytest.mark.parametrize("dtype", BITS)
def test_bitwise_and_broadcasts(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (3, 1), 2)
    assert_same(kernel.run(OP, [In(x), In(y), Out(dtype, (3, 4))])[0], x & y)


@pytest.mark.parametrize("dtype", BITS)
@pytest.mark.parametrize("other", [-6, 5, True])
def test_bitwise_and_scalar(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 4), 3)
    common = scalar_result_type(dtype, other)
    out = kernel.run(SCALAR_OP, [In(x), other, Out(common, x.shape)])[0]
    assert_same(out, x.astype(common) & np.array(other).astype(common))


def test_bitwise_and_mixed_zero_dim_empty(kernel: KernelRunner) -> None:
    u, i = np.array([0xF0, 0x0F], np.uint8), np.array([-1, 0x33], np.int8)
    assert_same(
        kernel.run(OP, [In(u), In(i), Out(np.int16, (2,))])[0],
        u.astype(np.int16) & i.astype(np.int16),
    )
    b, long = np.array([True, False]), np.array(6, np.int64)
    assert_same(
        kernel.run(OP, [In(b), In(long), Out(np.int64, (2,))])[0], b.astype(np.int64) & long
    )
    z = np.array(12, np.int32)
    assert_same(
        kernel.run(SCALAR_OP, [In(z), 10, Out(np.int32, ())])[0], np.array(12 & 10, np.int32)
    )
    e = np.zeros((0,), np.int16)
    assert kernel.run(SCALAR_OP, [In(e), 1, Out(np.int16, (0,))])[0].shape == (0,)


def test_bitwise_and_errors(kernel: KernelRunner) -> None:
    f = np.array([1.0], np.float32)
    assert_fails(kernel, OP, [In(f), In(f), Out(np.float32, (1,))], "not supported")
    i = np.array([1], np.int32)
    assert_fails(kernel, SCALAR_OP, [In(i), 1.5, Out(np.float32, (1,))])
    assert_fails(kernel, OP, [In(i), In(i), Out(np.bool_, (1,))], "cast")


def test_bitwise_and_rejects_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([1.0, 2.0], np.float32)
    for op, args in [(OP, [In(x), In(x)]), (SCALAR_OP, [In(x), 1])]:
        with pytest.raises(KernelFailed, match=f"{op}: .*not supported") as caught:
            run_bfloat16(kernel, op, [*args, Out(np.float32, (2,))])
        assert "\n" not in str(caught.value)
