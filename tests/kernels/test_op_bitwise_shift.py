"""bitwise_left_shift and bitwise_right_shift, tensor and scalar overloads (one module: the
same kernel shape, shifting the other way)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.kernels.binary_cases import (
    INTEGER,
    In,
    Out,
    assert_fails,
    assert_same,
    int_reference,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelRunner


def width(dtype: np.dtype) -> int:
    return dtype.itemsize * 8


def left(dtype: np.dtype) -> Callable[[int, int], int]:
    """torch's <<: 0 for a negative shift or one of the dtype's width or more."""
    return lambda p, q: 0 if q < 0 or q >= width(dtype) else p << q


def right(dtype: np.dtype) -> Callable[[int, int], int]:
    """torch's >>: arithmetic; -1 or 0 for a negative shift or one of the width or more."""
    return lambda p, q: (-1 if p < 0 else 0) if q < 0 or q >= width(dtype) else p >> q


SHIFTS = {"left": left, "right": right}


@pytest.fixture(params=sorted(SHIFTS))
def direction(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", INTEGER)
def test_shift_matches_torch(direction: str, kernel: KernelRunner, dtype: type) -> None:
    d = np.dtype(dtype)
    x = sample(dtype, (4, 5), 1)
    # Amounts in range, at the width, past it and (for signed dtypes) negative.
    pool = [0, 1, 3, width(d) - 1, width(d), width(d) + 5] + ([-1, -9] if d.kind == "i" else [])
    y = np.resize(np.array(pool), 5).astype(dtype)
    op = f"aten::bitwise_{direction}_shift.Tensor_out"
    out = kernel.run(op, [In(x), In(y), Out(dtype, (4, 5))])[0]
    assert_same(out, int_reference(SHIFTS[direction](d), x, y, d))


@pytest.mark.parametrize("dtype", INTEGER)
@pytest.mark.parametrize("amount", [0, 2, 70])
def test_shift_scalar(direction: str, kernel: KernelRunner, dtype: type, amount: int) -> None:
    d = np.dtype(dtype)
    x = sample(dtype, (2, 5), 3)
    op = f"aten::bitwise_{direction}_shift.Tensor_Scalar_out"
    out = kernel.run(op, [In(x), amount, Out(d, x.shape)])[0]
    assert_same(out, int_reference(SHIFTS[direction](d), x, np.array(amount), d))


def test_shift_bool_and_promotion(direction: str, kernel: KernelRunner) -> None:
    b = np.array([True, False, True])
    op = f"aten::bitwise_{direction}_shift.Tensor_out"
    shifted = kernel.run(op, [In(b), In(np.array([0, 1, 1], np.bool_)), Out(np.bool_, (3,))])[0]
    assert_same(shifted, np.array([True, False, direction == "left"]))
    # A bool tensor and an int scalar compute in Long, as torch's `b << 1` does.
    scalar_op = f"aten::bitwise_{direction}_shift.Tensor_Scalar_out"
    dtype = scalar_result_type(np.bool_, 1)
    out = kernel.run(scalar_op, [In(b), 1, Out(dtype, (3,))])[0]
    assert_same(
        out, int_reference(SHIFTS[direction](dtype), b.astype(np.int64), np.array(1), dtype)
    )


def test_shift_broadcast_strided_and_empty(direction: str, kernel: KernelRunner) -> None:
    op = f"aten::bitwise_{direction}_shift.Tensor_out"
    x = np.arange(-12, 12, dtype=np.int64).reshape(2, 3, 4)
    y = np.array([1, 2, 3, 4], dtype=np.int64)
    out = kernel.run(op, [In(x, (2, 1, 0)), In(y), Out(np.int64, (2, 3, 4))])[0]
    assert_same(out, int_reference(SHIFTS[direction](np.dtype(np.int64)), x, y, np.int64))
    e = np.zeros((0, 4), dtype=np.int32)
    assert kernel.run(op, [In(e), In(e), Out(np.int32, (0, 4))])[0].shape == (0, 4)


def test_shift_errors_are_one_line(direction: str, kernel: KernelRunner) -> None:
    op = f"aten::bitwise_{direction}_shift.Tensor_out"
    scalar_op = f"aten::bitwise_{direction}_shift.Tensor_Scalar_out"
    f = np.array([1.0, 2.0], dtype=np.float32)
    i = np.array([1, 2], dtype=np.int32)
    assert_fails(kernel, op, [In(f), In(i), Out(np.float32, (2,))])
    assert_fails(kernel, scalar_op, [In(i), 1.5, Out(np.float32, (2,))])
    assert_fails(kernel, op, [In(i), In(i), Out(np.int32, (3,))])
