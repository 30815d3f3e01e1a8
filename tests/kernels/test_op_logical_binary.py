from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import ALL, In, Out, assert_fails, assert_same, sample
from tests.kernels.harness import KernelRunner

# One module for logical_and/or/xor (their kernels share one implementation shape).
LOGICAL = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}


def ops(name: str) -> tuple[str, np.ufunc]:
    return f"aten::logical_{name}.out", LOGICAL[name]


@pytest.fixture(params=sorted(LOGICAL))
def logical(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", ALL)
def test_logical_any_dtype(logical: str, kernel: KernelRunner, dtype: type) -> None:
    op, fn = ops(logical)
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    assert_same(kernel.run(op, [In(x), In(y), Out(np.bool_, (3, 4))])[0], fn(x, y))


@pytest.mark.parametrize(
    ("da", "db", "do"),
    [
        (np.float32, np.int8, np.float32),
        (np.bool_, np.float16, np.int64),
        (np.uint8, np.float64, np.bool_),
    ],
)
def test_logical_mixed_dtypes_and_outs(
    logical: str, kernel: KernelRunner, da: type, db: type, do: type
) -> None:
    op, fn = ops(logical)
    x = (
        np.array([0, 1, 0, 2], dtype=da)
        if da is not np.bool_
        else np.array([False, True, False, True])
    )
    y = np.array(0, dtype=db) if db is not np.bool_ else np.array(False)
    y2 = (
        np.array([0.0, 0.0, np.nan, -0.0], dtype=db)
        if np.issubdtype(db, np.floating)
        else np.array([0, 0, 3, 1], dtype=db)
    )
    assert_same(kernel.run(op, [In(x), In(y), Out(do, (4,))])[0], fn(x, y).astype(do))
    assert_same(kernel.run(op, [In(x), In(y2), Out(do, (4,))])[0], fn(x, y2).astype(do))


def test_logical_zero_dim_empty_errors(logical: str, kernel: KernelRunner) -> None:
    op, fn = ops(logical)
    z = np.array(3, np.int32)
    assert_same(
        kernel.run(op, [In(z), In(np.array(0.0)), Out(np.bool_, ())])[0], np.array(fn(3, 0.0))
    )
    e = np.zeros((0, 3), np.bool_)
    assert kernel.run(op, [In(e), In(np.ones(3, bool)), Out(np.bool_, (0, 3))])[0].shape == (0, 3)
    assert_fails(
        kernel, op, [In(np.ones(2, bool)), In(np.ones(3, bool)), Out(np.bool_, (2,))], "broadcast"
    )


def test_logical_bfloat16(logical: str, kernel: KernelRunner) -> None:
    op, fn = ops(logical)
    x, y = bfloat16_inputs(
        np.array([[1.5, 0.0, np.nan], [-0.0, 7.0, 0.0]]), np.array([0.0, 3.0, 0.0])
    )
    (got,) = run_bfloat16(kernel, op, [In(x), In(y), Out(np.bool_, (2, 3))])
    assert_same(got, fn(x, y))
    (got,) = run_bfloat16(kernel, op, [In(x), In(y), Out(np.float32, (2, 3))])
    assert_same(got, fn(x, y).astype(np.float32))
