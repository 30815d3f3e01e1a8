from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.binary_cases import (
    FLOATING,
    INTEGER,
    REAL,
    In,
    Out,
    assert_fails,
    assert_same,
    floor_div,
    int_reference,
    nonzero,
    quiet,
    result_type,
    sample,
)
from tests.kernels.harness import KernelRunner

OP = "aten::floor_divide.out"


@pytest.mark.parametrize("dtype", REAL)
def test_floor_divide_matches_python(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    if np.issubdtype(dtype, np.integer):
        y = nonzero(y)
        expected = int_reference(floor_div, x, y, dtype)
    else:
        expected = quiet(lambda: np.floor_divide(x, y))
    assert_same(kernel.run(OP, [In(x), In(y), Out(dtype, (3, 4))])[0], expected)


@pytest.mark.parametrize("dtype", FLOATING)
def test_floor_divide_float_edges(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([1.0, -1.0, 0.0, np.inf, np.nan, -7.0, 7.0, -0.0, 5.0], dtype=dtype)
    y = np.array([0.0, 0.0, 0.0, 2.0, 1.0, 2.0, -2.0, 3.0, -np.inf], dtype=dtype)
    assert_same(
        kernel.run(OP, [In(x), In(y), Out(dtype, x.shape)])[0], quiet(lambda: np.floor_divide(x, y))
    )


def test_floor_divide_promotes_broadcasts_and_overflows(kernel: KernelRunner) -> None:
    # int32 // float32 is Float; a bool divisor promotes to the other's dtype.
    a = np.array([[7, -7, 9]], dtype=np.int32)
    b = np.array([[2.0], [-0.5]], dtype=np.float32)
    assert_same(
        kernel.run(OP, [In(a), In(b), Out(np.float32, (2, 3))])[0],
        np.floor_divide(a, b).astype(np.float32),
    )
    t = np.array([True, True, True])
    assert result_type(a, t) == np.int32
    assert_same(kernel.run(OP, [In(a), In(t), Out(np.int64, (1, 3))])[0], a.astype(np.int64))
    m = np.array([-(2**31), 5], dtype=np.int32)
    assert_same(
        kernel.run(OP, [In(m), In(np.array(-1, np.int32)), Out(np.int32, (2,))])[0],
        np.array([-(2**31), -5], dtype=np.int32),
    )
    e = np.zeros((0, 2), dtype=np.float64)
    assert kernel.run(OP, [In(e), In(e), Out(np.float64, (0, 2))])[0].shape == (0, 2)


@pytest.mark.parametrize("dtype", INTEGER)
def test_floor_divide_by_zero_is_one_line(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([4, 5], dtype=dtype)
    y = np.array([1, 0], dtype=dtype)
    assert_fails(kernel, OP, [In(x), In(y), Out(dtype, (2,))], "integer division by zero")


def test_floor_divide_errors_are_one_line(kernel: KernelRunner) -> None:
    b = np.array([True, True])
    f = np.array([1.5, 2.5], dtype=np.float32)
    assert_fails(kernel, OP, [In(b), In(b), Out(np.bool_, (2,))], "bool")
    assert_fails(kernel, OP, [In(f), In(f), Out(np.int32, (2,))])
    assert_fails(kernel, OP, [In(f), In(np.ones(3, np.float32)), Out(np.float32, (2,))])
