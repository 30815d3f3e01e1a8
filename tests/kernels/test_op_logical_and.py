from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import ALL, In, Out, assert_fails, assert_same, sample
from tests.kernels.harness import KernelRunner

OP = "aten::logical_and.out"
FN = np.logical_and


@pytest.mark.parametrize("dtype", ALL)
def test_logical_and_any_dtype(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    assert_same(kernel.run(OP, [In(x), In(y), Out(np.bool_, (3, 4))])[0], FN(x, y))


@pytest.mark.parametrize(
    ("da", "db", "do"),
    [
        (np.float32, np.int8, np.float32),
        (np.bool_, np.float16, np.int64),
        (np.uint8, np.float64, np.bool_),
    ],
)
def test_logical_and_mixed_dtypes_and_outs(
    kernel: KernelRunner, da: type, db: type, do: type
) -> None:
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
    assert_same(kernel.run(OP, [In(x), In(y), Out(do, (4,))])[0], FN(x, y).astype(do))
    assert_same(kernel.run(OP, [In(x), In(y2), Out(do, (4,))])[0], FN(x, y2).astype(do))


def test_logical_and_zero_dim_empty_errors(kernel: KernelRunner) -> None:
    z = np.array(3, np.int32)
    assert_same(
        kernel.run(OP, [In(z), In(np.array(0.0)), Out(np.bool_, ())])[0], np.array(FN(3, 0.0))
    )
    e = np.zeros((0, 3), np.bool_)
    assert kernel.run(OP, [In(e), In(np.ones(3, bool)), Out(np.bool_, (0, 3))])[0].shape == (0, 3)
    assert_fails(
        kernel, OP, [In(np.ones(2, bool)), In(np.ones(3, bool)), Out(np.bool_, (2,))], "broadcast"
    )


def test_logical_and_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, 0.0, np.nan], [-0.0, 7.0, 0.0]]), np.array([0.0, 3.0, 0.0])
    )
    (got,) = run_bfloat16(kernel, OP, [In(x), In(y), Out(np.bool_, (2, 3))])
    assert_same(got, np.logical_and(x, y))
    (got,) = run_bfloat16(kernel, OP, [In(x), In(y), Out(np.float32, (2, 3))])
    assert_same(got, np.logical_and(x, y).astype(np.float32))
