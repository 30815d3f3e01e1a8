from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails


# One module for amax and amin (a reduction over a list of dims).
@dataclass(frozen=True)
class Extreme:
    op: str
    reference: Callable[..., np.ndarray]
    # test_extreme_bfloat16: the expected result over dim 1, then over all of the first row.
    bfloat16_rows: tuple[float, float]
    bfloat16_first_row: float


EXTREMES = {
    "amax": Extreme("aten::amax.out", np.max, (1.5, np.nan), 1.5),
    "amin": Extreme("aten::amin.out", np.min, (-2.0, np.nan), -2.0),
}


@pytest.fixture(params=sorted(EXTREMES))
def extreme(request: pytest.FixtureRequest) -> Extreme:
    return EXTREMES[request.param]


@pytest.mark.parametrize("dtype", ALL)
def test_extreme_over_dims(extreme: Extreme, kernel: KernelRunner, dtype: type) -> None:
    op, reference = extreme.op, extreme.reference
    x = (np.random.default_rng(20).permutation(24).reshape(2, 3, 4) % 9).astype(dtype)
    (out,) = kernel.run(op, [In(x), IntList((1,)), False, Out(dtype, (2, 4))])
    np.testing.assert_array_equal(out, reference(x, axis=1))
    (out,) = kernel.run(op, [In(x), IntList((0, -1)), True, Out(dtype, (1, 3, 1))])
    np.testing.assert_array_equal(out, reference(x, axis=(0, 2), keepdims=True))
    (out,) = kernel.run(op, [In(x), IntList(()), False, Out(dtype, ())])
    assert out == reference(x)


def test_extreme_nan_inf_extremes_and_zero_dim(extreme: Extreme, kernel: KernelRunner) -> None:
    op, reference = extreme.op, extreme.reference
    x = np.array([[1.0, np.nan, 3.0], [-np.inf, np.inf, 0.0]], np.float32)
    (out,) = kernel.run(op, [In(x), IntList((1,)), False, Out(np.float32, (2,))])
    np.testing.assert_array_equal(out, reference(x, axis=1))
    i = np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max], np.int64)
    (out,) = kernel.run(op, [In(i), IntList((0,)), False, Out(np.int64, ())])
    assert out == reference(i)
    (out,) = kernel.run(op, [In(np.array(5, np.int16)), IntList((0,)), False, Out(np.int16, ())])
    assert out == 5
    (out,) = kernel.run(
        op, [In(np.zeros((0, 3), np.float32)), IntList((1,)), False, Out(np.float32, (0,))]
    )
    assert out.shape == (0,)


def test_extreme_errors(extreme: Extreme, kernel: KernelRunner) -> None:
    op = extreme.op
    x = np.ones((2, 3), np.float32)
    for args in (
        [In(np.zeros((2, 0), np.float32)), IntList((1,)), False, Out(np.float32, (2,))],
        [In(x), IntList((1,)), False, Out(np.float64, (2,))],
        [In(x), IntList((2,)), False, Out(np.float32, (2,))],
        [In(x), IntList((1,)), False, Out(np.float32, (3,))],
    ):
        assert_fails(kernel, op, args)


def test_extreme_bfloat16(extreme: Extreme, kernel: KernelRunner) -> None:
    op = extreme.op
    (x,) = bfloat16_inputs(np.array([[1.5, -2.0, 0.3], [np.nan, 7.0, -0.5]]))
    (got,) = run_bfloat16(kernel, op, [In(x), IntList((1,)), False, Out(np.float32, (2,))])
    np.testing.assert_array_equal(got, extreme.bfloat16_rows)
    (got,) = run_bfloat16(kernel, op, [In(x[:1]), IntList(()), True, Out(np.float32, (1, 1))])
    np.testing.assert_array_equal(got, [[extreme.bfloat16_first_row]])
