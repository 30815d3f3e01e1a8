from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails


# One module for max.dim_max and min.dim_min (values and indices along one dim).
@dataclass(frozen=True)
class DimReduction:
    op: str
    values: Callable[..., np.ndarray]
    indices: Callable[..., np.ndarray]
    # test_dim_reduction_bfloat16: the expected values and indices along dim 1, keepdim.
    bfloat16_values: tuple[tuple[float], ...]
    bfloat16_indices: tuple[tuple[int], ...]


REDUCTIONS = {
    "max": DimReduction("aten::max.dim_max", np.max, np.argmax, ((7.0,), (np.nan,)), ((3,), (1,))),
    "min": DimReduction("aten::min.dim_min", np.min, np.argmin, ((-2.0,), (np.nan,)), ((1,), (1,))),
}


@pytest.fixture(params=sorted(REDUCTIONS))
def reduction(request: pytest.FixtureRequest) -> DimReduction:
    return REDUCTIONS[request.param]


@pytest.mark.parametrize("dtype", ALL)
def test_dim_reduction_values_and_first_indices(
    reduction: DimReduction, kernel: KernelRunner, dtype: type
) -> None:
    op = reduction.op
    x = (np.arange(24).reshape(2, 3, 4) * 7 % 5).astype(dtype)
    values, indices = kernel.run(op, [In(x), 1, False, Out(dtype, (2, 4)), Out(np.int64, (2, 4))])
    np.testing.assert_array_equal(values, reduction.values(x, axis=1))
    np.testing.assert_array_equal(indices, reduction.indices(x, axis=1))
    values, indices = kernel.run(
        op, [In(x), -1, True, Out(dtype, (2, 3, 1)), Out(np.int64, (2, 3, 1))]
    )
    np.testing.assert_array_equal(values, reduction.values(x, axis=-1, keepdims=True))
    np.testing.assert_array_equal(indices, reduction.indices(x, axis=-1, keepdims=True))


def test_dim_reduction_nan_layouts_zero_dim_and_empty(
    reduction: DimReduction, kernel: KernelRunner
) -> None:
    op = reduction.op
    x = np.array([[1.0, np.nan, np.nan], [-np.inf, np.inf, 0.0]], np.float32)
    values, indices = kernel.run(op, [In(x), 1, False, Out(np.float32, (2,)), Out(np.int64, (2,))])
    np.testing.assert_array_equal(values, reduction.values(x, axis=1))
    np.testing.assert_array_equal(indices, reduction.indices(x, axis=1))
    y = np.random.default_rng(21).standard_normal((3, 4)).astype(np.float64)
    values, indices = kernel.run(
        op,
        [
            In(y, dim_order=(1, 0)),
            0,
            False,
            Out(np.float64, (4,)),
            Out(np.int64, (4,), dim_order=(0,)),
        ],
    )
    np.testing.assert_array_equal(indices, reduction.indices(y, axis=0))
    values, indices = kernel.run(
        op, [In(np.array(2.0, np.float32)), 0, False, Out(np.float32, ()), Out(np.int64, ())]
    )
    assert values == 2.0 and indices == 0
    e = np.zeros((0, 3), np.int32)
    values, indices = kernel.run(op, [In(e), 1, False, Out(np.int32, (0,)), Out(np.int64, (0,))])
    assert values.shape == (0,) and indices.shape == (0,)


def test_dim_reduction_errors(reduction: DimReduction, kernel: KernelRunner) -> None:
    op = reduction.op
    x = np.ones((2, 3), np.float32)
    for args in (
        [In(np.zeros((2, 0), np.float32)), 1, False, Out(np.float32, (2,)), Out(np.int64, (2,))],
        [In(x), 1, False, Out(np.float32, (2,)), Out(np.int32, (2,))],
        [In(x), 2, False, Out(np.float32, (2,)), Out(np.int64, (2,))],
        [In(x), 1, False, Out(np.float64, (2,)), Out(np.int64, (2,))],
    ):
        assert_fails(kernel, op, args)


def test_dim_reduction_bfloat16(reduction: DimReduction, kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.array([[1.5, -2.0, 0.3, 7.0], [0.1, np.nan, 7.0, 9.0]]))
    outs = [Out(np.float32, (2, 1)), Out(np.int64, (2, 1))]
    values, indices = run_bfloat16(kernel, reduction.op, [In(x), 1, True, *outs])
    np.testing.assert_array_equal(values, reduction.bfloat16_values)
    np.testing.assert_array_equal(indices, reduction.bfloat16_indices)


# max.unary_out and min.unary_out: the extreme of every element, into a 0-dim out.
UNARY = {"max": np.max, "min": np.min}


@pytest.fixture(params=sorted(UNARY))
def whole(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", ALL)
def test_unary_extreme(whole: str, kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) * 7 % 11 - 4).astype(dtype)
    (out,) = kernel.run(f"aten::{whole}.unary_out", [In(x, (2, 0, 1)), Out(dtype, ())])
    assert out.shape == () and out.dtype == dtype
    assert out == UNARY[whole](x)


def test_unary_extreme_nan_zero_dim_and_bfloat16(whole: str, kernel: KernelRunner) -> None:
    op = f"aten::{whole}.unary_out"
    x = np.array([1.0, np.nan, -np.inf, 5.0], dtype=np.float32)
    assert np.isnan(kernel.run(op, [In(x), Out(np.float32, ())])[0])
    (out,) = kernel.run(op, [In(np.array(2.5, np.float64)), Out(np.float64, ())])
    assert out == 2.5
    y = np.array([[3.0, -1.5], [7.25, 0.0]], dtype=np.float32)
    (out,) = run_bfloat16(kernel, op, [In(y), Out(np.float32, ())])
    assert out == UNARY[whole](y)


def test_unary_extreme_errors_are_one_line(whole: str, kernel: KernelRunner) -> None:
    op = f"aten::{whole}.unary_out"
    x = np.array([1.0, 2.0], dtype=np.float32)
    assert_fails(kernel, op, [In(np.zeros((2, 0), np.float32)), Out(np.float32, ())], "size 0")
    assert_fails(kernel, op, [In(x), Out(np.float64, ())], "out must have self's dtype")
    assert_fails(kernel, op, [In(x), Out(np.float32, (1,))])
