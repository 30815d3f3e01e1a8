from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.binary_cases import (
    ALL,
    FLOATING,
    In,
    Out,
    assert_fails,
    assert_same,
    result_type,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelRunner

OP = "aten::ne.Tensor_out"
SCALAR_OP = "aten::ne.Scalar_out"
FN = np.not_equal


@pytest.mark.parametrize("dtype", ALL)
def test_ne_broadcasts_to_bool(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    y[0] = x[0, 0]  # some equal pairs
    out = kernel.run(OP, [In(x), In(y), Out(np.bool_, (3, 4))])[0]
    assert_same(out, FN(x, y))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("other", [0, 1, 2.5, True])
def test_ne_scalar_in_the_promoted_dtype(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 5), 3)
    common = scalar_result_type(dtype, other)
    out = kernel.run(SCALAR_OP, [In(x), other, Out(np.bool_, x.shape)])[0]
    assert_same(out, FN(x.astype(common), np.array(other).astype(common)))


@pytest.mark.parametrize("dtype", FLOATING)
def test_ne_nan_inf(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([np.nan, np.nan, np.inf, -np.inf, -0.0, 1.0], dtype=dtype)
    y = np.array([np.nan, 1.0, np.inf, 0.0, 0.0, np.inf], dtype=dtype)
    assert_same(kernel.run(OP, [In(x), In(y), Out(np.bool_, x.shape)])[0], FN(x, y))


def test_ne_mixed_dtypes_and_outs(kernel: KernelRunner) -> None:
    # int64 against a 0-dim float: compared in float32.
    x = np.array([16777217, 3], dtype=np.int64)
    y = np.array(16777216.0, dtype=np.float32)
    assert result_type(x, y) == np.float32
    assert_same(kernel.run(OP, [In(x), In(y), Out(np.bool_, (2,))])[0], FN(x.astype(np.float32), y))
    # uint8 against int8 compares in int16; out may be any dtype.
    u, i = np.array([255, 0, 3], np.uint8), np.array([-1, 0, 4], np.int8)
    assert_same(
        kernel.run(OP, [In(u), In(i), Out(np.float32, (3,))])[0],
        FN(u.astype(np.int16), i).astype(np.float32),
    )
    # float16 against a scalar that float16 rounds: torch converts the scalar first.
    h = np.array([0.1], dtype=np.float16)
    assert_same(kernel.run(SCALAR_OP, [In(h), 0.1, Out(np.bool_, (1,))])[0], FN(h, np.float16(0.1)))
    z = np.array(2, dtype=np.int32)
    assert_same(kernel.run(SCALAR_OP, [In(z), 2, Out(np.bool_, ())])[0], np.array(FN(2, 2)))
    e = np.zeros((0, 2), np.float64)
    assert kernel.run(SCALAR_OP, [In(e), 1, Out(np.bool_, (0, 2))])[0].shape == (0, 2)


def test_ne_errors(kernel: KernelRunner) -> None:
    f = np.ones((2, 3), np.float32)
    assert_fails(
        kernel, OP, [In(f), In(np.ones((2,), np.float32)), Out(np.bool_, (2, 3))], "broadcast"
    )
    assert_fails(kernel, SCALAR_OP, [In(f), 1, Out(np.bool_, (3, 2))], "shape")
