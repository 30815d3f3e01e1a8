from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import REAL, In, KernelRunner, Out, assert_fails


# One module for argmax and argmin (an index along one dim, or into the flattened input).
@dataclass(frozen=True)
class ArgExtreme:
    op: str
    reference: Callable[..., np.ndarray]
    # test_arg_extreme_bfloat16: the expected indices along dim 1, then into the first row.
    bfloat16_rows: tuple[int, int]
    bfloat16_first_row: int


ARG_EXTREMES = {
    "argmax": ArgExtreme("aten::argmax.out", np.argmax, (3, 1), 3),
    "argmin": ArgExtreme("aten::argmin.out", np.argmin, (1, 1), 1),
}


@pytest.fixture(params=sorted(ARG_EXTREMES))
def arg_extreme(request: pytest.FixtureRequest) -> ArgExtreme:
    return ARG_EXTREMES[request.param]


@pytest.mark.parametrize("dtype", REAL)
def test_arg_extreme_dim_and_flattened(
    arg_extreme: ArgExtreme, kernel: KernelRunner, dtype: type
) -> None:
    op, reference = arg_extreme.op, arg_extreme.reference
    x = (np.arange(24).reshape(2, 3, 4) * 7 % 5).astype(dtype)
    (out,) = kernel.run(op, [In(x), 1, False, Out(np.int64, (2, 4))])
    np.testing.assert_array_equal(out, reference(x, axis=1))
    (out,) = kernel.run(op, [In(x), None, False, Out(np.int64, ())])
    assert out == reference(x)
    (out,) = kernel.run(op, [In(x), None, True, Out(np.int64, (1, 1, 1))])
    assert out.shape == (1, 1, 1) and out[0, 0, 0] == reference(x)


def test_arg_extreme_nan_zero_dim_and_empty(arg_extreme: ArgExtreme, kernel: KernelRunner) -> None:
    op = arg_extreme.op
    x = np.array([[1.0, np.nan, np.nan], [-np.inf, np.inf, 0.0]], np.float32)
    (out,) = kernel.run(op, [In(x), -1, False, Out(np.int64, (2,))])
    np.testing.assert_array_equal(out, arg_extreme.reference(x, axis=1))
    (out,) = kernel.run(op, [In(np.array(3, np.int8)), None, False, Out(np.int64, ())])
    assert out == 0
    (out,) = kernel.run(op, [In(np.zeros((0, 3), np.float32)), 1, False, Out(np.int64, (0,))])
    assert out.shape == (0,)


def test_arg_extreme_errors(arg_extreme: ArgExtreme, kernel: KernelRunner) -> None:
    op = arg_extreme.op
    x = np.ones((2, 3), np.float32)
    for args in (
        [In(np.zeros((2, 0), np.float32)), 1, False, Out(np.int64, (2,))],
        [In(x), 1, False, Out(np.int32, (2,))],
        [In(x), 3, False, Out(np.int64, (2,))],
        [In(x.astype(np.bool_)), 1, False, Out(np.int64, (2,))],
    ):
        assert_fails(kernel, op, args)


def test_arg_extreme_bfloat16(arg_extreme: ArgExtreme, kernel: KernelRunner) -> None:
    op = arg_extreme.op
    (x,) = bfloat16_inputs(np.array([[1.5, -2.0, 0.3, 7.0], [0.1, np.nan, 7.0, 9.0]]))
    (got,) = run_bfloat16(kernel, op, [In(x), 1, False, Out(np.int64, (2,))])
    np.testing.assert_array_equal(got, arg_extreme.bfloat16_rows)
    (got,) = run_bfloat16(kernel, op, [In(x[:1]), None, False, Out(np.int64, ())])
    np.testing.assert_array_equal(got, arg_extreme.bfloat16_first_row)
