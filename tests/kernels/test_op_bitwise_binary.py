from __future__ import annotations

from functools import partial

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
from tests.kernels.harness import KernelRunner

BITS = [np.bool_] + INTEGER

# One module for bitwise_and/or/xor (the same tests, with the operator swapped).
BITWISE = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def ops(name: str) -> tuple[str, str, np.ufunc]:
    return f"aten::bitwise_{name}.Tensor_out", f"aten::bitwise_{name}.Scalar_out", BITWISE[name]


@pytest.fixture(params=sorted(BITWISE))
def bitwise(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", BITS)
def test_bitwise_broadcasts(bitwise: str, kernel: KernelRunner, dtype: type) -> None:
    op, _, fn = ops(bitwise)
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (3, 1), 2)
    assert_same(kernel.run(op, [In(x), In(y), Out(dtype, (3, 4))])[0], fn(x, y))


@pytest.mark.parametrize("dtype", BITS)
@pytest.mark.parametrize("other", [-6, 5, True])
def test_bitwise_scalar(bitwise: str, kernel: KernelRunner, dtype: type, other: object) -> None:
    _, scalar_op, fn = ops(bitwise)
    x = sample(dtype, (2, 4), 3)
    common = scalar_result_type(dtype, other)
    out = kernel.run(scalar_op, [In(x), other, Out(common, x.shape)])[0]
    assert_same(out, fn(x.astype(common), np.array(other).astype(common)))


def test_bitwise_mixed_zero_dim_empty(bitwise: str, kernel: KernelRunner) -> None:
    op, scalar_op, fn = ops(bitwise)
    u, i = np.array([0xF0, 0x0F], np.uint8), np.array([-1, 0x33], np.int8)
    assert_same(
        kernel.run(op, [In(u), In(i), Out(np.int16, (2,))])[0],
        fn(u.astype(np.int16), i.astype(np.int16)),
    )
    b, long = np.array([True, False]), np.array(6, np.int64)
    assert_same(
        kernel.run(op, [In(b), In(long), Out(np.int64, (2,))])[0], fn(b.astype(np.int64), long)
    )
    z = np.array(12, np.int32)
    assert_same(
        kernel.run(scalar_op, [In(z), 10, Out(np.int32, ())])[0], np.array(fn(12, 10), np.int32)
    )
    e = np.zeros((0,), np.int16)
    assert kernel.run(scalar_op, [In(e), 1, Out(np.int16, (0,))])[0].shape == (0,)


def test_bitwise_errors(bitwise: str, kernel: KernelRunner) -> None:
    op, scalar_op, _ = ops(bitwise)
    f = np.array([1.0], np.float32)
    assert_fails(kernel, op, [In(f), In(f), Out(np.float32, (1,))], "not supported")
    i = np.array([1], np.int32)
    assert_fails(kernel, scalar_op, [In(i), 1.5, Out(np.float32, (1,))])
    assert_fails(kernel, op, [In(i), In(i), Out(np.bool_, (1,))], "cast")


def test_bitwise_rejects_bfloat16(bitwise: str, kernel: KernelRunner) -> None:
    tensor_op, scalar_op, _ = ops(bitwise)
    x = np.array([1.0, 2.0], np.float32)
    bfloat16 = partial(run_bfloat16, kernel)
    for op, args in [(tensor_op, [In(x), In(x)]), (scalar_op, [In(x), 1])]:
        assert_fails(kernel, op, [*args, Out(np.float32, (2,))], "not supported", bfloat16)
