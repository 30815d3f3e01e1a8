from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import ALL, In, Out, assert_fails, assert_same, result_type, sample
from tests.kernels.harness import KernelRunner

OP = "aten::where.self_out"


@pytest.mark.parametrize("dtype", ALL)
def test_where_broadcasts_three_ways(kernel: KernelRunner, dtype: type) -> None:
    c = np.array([[True], [False], [True]])
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    assert_same(kernel.run(OP, [In(c), In(x), In(y), Out(dtype, (3, 4))])[0], np.where(c, x, y))


@pytest.mark.parametrize(
    ("da", "db"),
    [(np.int32, np.float32), (np.bool_, np.int8), (np.uint8, np.int8), (np.float16, np.float64)],
)
def test_where_promotes(kernel: KernelRunner, da: type, db: type) -> None:
    c = np.array([True, False, False, True])
    x, y = sample(da, (4,), 3), sample(db, (2, 4), 4)
    common = result_type(x, y)
    assert_same(
        kernel.run(OP, [In(c), In(x), In(y), Out(common, (2, 4))])[0],
        np.where(c, x.astype(common), y.astype(common)),
    )


def test_where_zero_dim_byte_condition_empty_strided(kernel: KernelRunner) -> None:
    c = np.array([1, 0, 7], dtype=np.uint8)
    x = np.array([1.5, 2.5, 3.5], np.float32)
    y = np.array(-1.0, np.float64)  # 0-dim: does not widen float32
    assert_same(
        kernel.run(OP, [In(c), In(x), In(y), Out(np.float32, (3,))])[0],
        np.array([1.5, -1, 3.5], np.float32),
    )
    assert_same(
        kernel.run(
            OP,
            [
                In(np.array(False)),
                In(np.array(1, np.int64)),
                In(np.array(2, np.int64)),
                Out(np.int64, ()),
            ],
        )[0],
        np.array(2, np.int64),
    )
    e = np.zeros((0, 2), bool)
    assert kernel.run(
        OP, [In(e), In(np.ones(2, np.int16)), In(np.ones(2, np.int16)), Out(np.int16, (0, 2))]
    )[0].shape == (0, 2)
    x3 = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    c3 = x3 % 3 == 0
    out = kernel.run(OP, [In(c3), In(x3, dim_order=(2, 0, 1)), In(-x3), Out(np.int32, (2, 3, 4))])[
        0
    ]
    assert_same(out, np.where(c3, x3, -x3))


def test_where_errors(kernel: KernelRunner) -> None:
    x = np.ones((2,), np.float32)
    assert_fails(
        kernel,
        OP,
        [In(np.array([1, 0], np.int32)), In(x), In(x), Out(np.float32, (2,))],
        "not supported",
    )
    assert_fails(
        kernel, OP, [In(np.array([True, False])), In(x), In(x), Out(np.float64, (2,))], "dtype"
    )
    assert_fails(
        kernel, OP, [In(np.ones(3, bool)), In(x), In(x), Out(np.float32, (2,))], "broadcast"
    )


def test_where_bfloat16(kernel: KernelRunner) -> None:
    c = np.array([[True], [False]])
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, np.nan], [3.0, np.inf, 0.3]]), np.array([0.1, 3.0, -7.0])
    )
    (got,) = run_bfloat16(kernel, OP, [In(c), In(x), In(y), Out(np.float32, (2, 3))])
    assert_same(got, np.where(c, x, y))
