from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "dim_order_ops::_to_dim_order_copy.out"


def sample(dtype: type) -> np.ndarray:
    if np.dtype(dtype).kind == "f":
        return np.array([0.0, 1.5, -2.75, 100.25, 0.5, 3.0], dtype=dtype)
    if dtype is np.bool_:
        return np.array([True, False, True, True, False, False])
    return np.array([0, 1, 127, 5, 42, 3], dtype=dtype)


@pytest.mark.parametrize("target", ALL)
@pytest.mark.parametrize("source", ALL)
def test_convert_every_dtype_pair(kernel: KernelRunner, source: type, target: type) -> None:
    x = sample(source)
    (out,) = kernel.run(OP, [In(x), False, None, Out(target, x.shape)])
    np.testing.assert_array_equal(out, x.astype(target))


def test_special_values(kernel: KernelRunner) -> None:
    x = np.array([np.nan, np.inf, -0.0, 1e10], dtype=np.float64)
    (out,) = kernel.run(OP, [In(x), False, None, Out(np.bool_, (4,))])
    np.testing.assert_array_equal(out, [True, True, False, True])
    (out,) = kernel.run(OP, [In(x), False, None, Out(np.float16, (4,))])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, x.astype(np.float16))
    big = np.array([300, -1, 2**40 + 7], dtype=np.int64)
    (out,) = kernel.run(OP, [In(big), False, None, Out(np.uint8, (3,))])
    np.testing.assert_array_equal(out, big.astype(np.uint8))  # wraps
    (out,) = kernel.run(OP, [In(big), False, None, Out(np.float32, (3,))])
    np.testing.assert_array_equal(out, big.astype(np.float32))


def test_contiguous_to_channels_last_and_back(kernel: KernelRunner) -> None:
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    cl = (0, 2, 3, 1)
    (out,) = kernel.run(OP, [In(x), False, IntList(cl), Out(np.float32, x.shape, dim_order=cl)])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(
        OP, [In(x, dim_order=cl), False, IntList((0, 1, 2, 3)), Out(np.float64, x.shape)]
    )
    np.testing.assert_array_equal(out, x.astype(np.float64))


def test_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(2.5, np.float32)), False, None, Out(np.int32, ())])
    assert out.shape == () and out == 2
    (out,) = kernel.run(OP, [In(np.zeros((0, 3), np.int8)), False, None, Out(np.float16, (0, 3))])
    assert out.shape == (0, 3)


def test_bfloat16_round_trip(kernel: KernelRunner) -> None:
    # npy has no bfloat16: cast float32 -> bfloat16 -> (this op) -> float32 in one program.
    x = np.array([1.0, 1.00390625, -3.5, 65280.0, 1e-3], dtype=np.float32)
    (out,) = run_bfloat16(kernel, OP, [In(x), False, None, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, to_bfloat16(x))  # rounded to nearest even


def test_wrong_dim_order_fails(kernel: KernelRunner) -> None:
    x = np.ones((1, 2, 3, 4), np.float32)
    assert_fails(kernel, OP, [In(x), False, IntList((0, 2, 3, 1)), Out(np.float32, x.shape)])
