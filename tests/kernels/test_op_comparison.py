from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
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

# One test module for the six comparison operators (op_eq.cpp ... op_ne.cpp share their
# machinery): name -> numpy reference.
COMPARISONS = {
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
}


def ops(name: str) -> tuple[str, str, np.ufunc]:
    return f"aten::{name}.Tensor_out", f"aten::{name}.Scalar_out", COMPARISONS[name]


@pytest.fixture(params=sorted(COMPARISONS))
def comparison(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", ALL)
def test_comparison_broadcasts_to_bool(comparison: str, kernel: KernelRunner, dtype: type) -> None:
    op, scalar_op, fn = ops(comparison)
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    y[0] = x[0, 0]  # some equal pairs
    out = kernel.run(op, [In(x), In(y), Out(np.bool_, (3, 4))])[0]
    assert_same(out, fn(x, y))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("other", [0, 1, 2.5, True])
def test_comparison_scalar_in_the_promoted_dtype(
    comparison: str, kernel: KernelRunner, dtype: type, other: object
) -> None:
    op, scalar_op, fn = ops(comparison)
    x = sample(dtype, (2, 5), 3)
    common = scalar_result_type(dtype, other)
    out = kernel.run(scalar_op, [In(x), other, Out(np.bool_, x.shape)])[0]
    assert_same(out, fn(x.astype(common), np.array(other).astype(common)))


@pytest.mark.parametrize("dtype", FLOATING)
def test_comparison_nan_inf(comparison: str, kernel: KernelRunner, dtype: type) -> None:
    op, scalar_op, fn = ops(comparison)
    x = np.array([np.nan, np.nan, np.inf, -np.inf, -0.0, 1.0], dtype=dtype)
    y = np.array([np.nan, 1.0, np.inf, 0.0, 0.0, np.inf], dtype=dtype)
    assert_same(kernel.run(op, [In(x), In(y), Out(np.bool_, x.shape)])[0], fn(x, y))


def test_comparison_mixed_dtypes_and_outs(comparison: str, kernel: KernelRunner) -> None:
    op, scalar_op, fn = ops(comparison)
    # int64 against a 0-dim float: compared in float32.
    x = np.array([16777217, 3], dtype=np.int64)
    y = np.array(16777216.0, dtype=np.float32)
    assert result_type(x, y) == np.float32
    assert_same(kernel.run(op, [In(x), In(y), Out(np.bool_, (2,))])[0], fn(x.astype(np.float32), y))
    # uint8 against int8 compares in int16; out may be any dtype.
    u, i = np.array([255, 0, 3], np.uint8), np.array([-1, 0, 4], np.int8)
    assert_same(
        kernel.run(op, [In(u), In(i), Out(np.float32, (3,))])[0],
        fn(u.astype(np.int16), i).astype(np.float32),
    )
    # float16 against a scalar that float16 rounds: torch converts the scalar first.
    h = np.array([0.1], dtype=np.float16)
    assert_same(kernel.run(scalar_op, [In(h), 0.1, Out(np.bool_, (1,))])[0], fn(h, np.float16(0.1)))
    z = np.array(2, dtype=np.int32)
    assert_same(kernel.run(scalar_op, [In(z), 2, Out(np.bool_, ())])[0], np.array(fn(2, 2)))
    e = np.zeros((0, 2), np.float64)
    assert kernel.run(scalar_op, [In(e), 1, Out(np.bool_, (0, 2))])[0].shape == (0, 2)


def test_comparison_errors(comparison: str, kernel: KernelRunner) -> None:
    op, scalar_op, fn = ops(comparison)
    f = np.ones((2, 3), np.float32)
    assert_fails(
        kernel, op, [In(f), In(np.ones((2,), np.float32)), Out(np.bool_, (2, 3))], "broadcast"
    )
    assert_fails(kernel, scalar_op, [In(f), 1, Out(np.bool_, (3, 2))], "shape")


def test_comparison_bfloat16(comparison: str, kernel: KernelRunner) -> None:
    op, scalar_op, fn = ops(comparison)
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, np.nan], [3.0, np.inf, 0.25]]), np.array([1.5, 3.0, 0.25])
    )
    (got,) = run_bfloat16(kernel, op, [In(x), In(y), Out(np.bool_, (2, 3))])
    with np.errstate(invalid="ignore"):
        assert_same(got, fn(x, y))
        (got,) = run_bfloat16(kernel, scalar_op, [In(x), 1.5, Out(np.bool_, (2, 3))])
        assert_same(got, fn(x, np.float32(1.5)))
