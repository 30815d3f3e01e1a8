"""Shared inputs and a runner for the unary kernel tests (test_op_abs.py, ...)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import (
    ALL,
    FLOATING,
    INTEGER,
    REAL,
    In,
    KernelRunner,
    Out,
    assert_fails,
)

__all__ = [
    "ALL",
    "FLOATING",
    "FLOAT_EDGES",
    "INTEGER",
    "REAL",
    "check_bfloat16",
    "check_float_op",
    "check_float_op_errors",
    "check_float_op_shapes",
    "compute_dtype",
    "expected_float",
    "run_unary",
    "sample",
    "tolerance",
]


def sample(dtype: type, shape: tuple[int, ...] = (2, 3)) -> np.ndarray:
    """Values spanning the dtype's interesting range (extremes for integers)."""
    count = int(np.prod(shape))
    if dtype is np.bool_:
        return (np.arange(count) % 2 == 0).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, 2, 7], dtype=np.int64)
        if info.min < 0:
            pool = np.concatenate([pool, [-1, -5, info.min + 1]])
        return np.resize(pool, count).astype(dtype).reshape(shape)
    pool = np.array([-2.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.5, 2.5, 3.0, -7.25, 100.0])
    return np.resize(pool, count).astype(dtype).reshape(shape)


def run_unary(
    kernel: KernelRunner,
    op: str,
    x: np.ndarray,
    out_dtype: type,
    *params: object,
    dim_order: tuple[int, ...] | None = None,
) -> np.ndarray:
    """Calls `op(self, *params, out)` and returns out."""
    (out,) = kernel.run(op, [In(x, dim_order), *params, Out(out_dtype, x.shape)])
    return out


def tolerance(dtype: type) -> dict[str, float]:
    """assert_allclose tolerances for a result in `dtype`."""
    if dtype is np.float16:
        return {"rtol": 2e-3, "atol": 1e-3}
    if dtype is np.float32:
        return {"rtol": 2e-6, "atol": 1e-6}
    return {"rtol": 1e-12, "atol": 1e-12}


FLOAT_EDGES = np.array(
    [
        np.nan,
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        1e-8,
        -1e-8,
        0.5,
        -0.5,
        1.0,
        -1.0,
        3.0,
        -3.0,
        20.0,
        -20.0,
        100.0,
        -100.0,
    ]
)


def compute_dtype(dtype: type) -> type:
    """The compute (and result) dtype of a floating point op on `dtype`."""
    return dtype if dtype in FLOATING else np.float32


def expected_float(
    reference: Callable[[np.ndarray], np.ndarray], x: np.ndarray, dtype: type
) -> np.ndarray:
    """reference(x) evaluated in float64 on x as the kernel sees it (cast to its
    compute dtype, 16-bit floats widened), rounded to `dtype`."""
    compute = compute_dtype(x.dtype.type)
    with np.errstate(all="ignore"):
        return reference(x.astype(compute).astype(np.float64)).astype(dtype)


def check_float_op(
    kernel: KernelRunner,
    op: str,
    reference: Callable[[np.ndarray], np.ndarray],
    dtype: type,
    *params: object,
) -> None:
    """op(self) matches reference for self of `dtype`: sample values and, for
    floating dtypes, NaN, infinities and signed zeros; integers and bool give Float."""
    x = sample(dtype, (3, 4))
    if dtype in FLOATING:
        x = np.concatenate([x.ravel(), FLOAT_EDGES.astype(dtype)])
    result = compute_dtype(dtype)
    out = run_unary(kernel, op, x, result, *params)
    assert out.dtype == result
    np.testing.assert_allclose(out, expected_float(reference, x, result), **tolerance(result))


def check_float_op_shapes(
    kernel: KernelRunner, op: str, reference: Callable[[np.ndarray], np.ndarray], *params: object
) -> None:
    """0-dim, empty and permuted inputs; an int32 input into a Double out
    (computed in Float, then widened)."""
    x = np.array(0.75, dtype=np.float32)
    np.testing.assert_allclose(
        run_unary(kernel, op, x, np.float32, *params),
        expected_float(reference, x, np.float32),
        **tolerance(np.float32),
    )
    assert run_unary(kernel, op, np.zeros((0, 3), dtype=np.float64), np.float64, *params).shape == (
        0,
        3,
    )
    y = (np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 11.0) / 4
    out = run_unary(kernel, op, y, np.float64, *params, dim_order=(2, 1, 0))
    np.testing.assert_allclose(
        out, expected_float(reference, y, np.float64), **tolerance(np.float64)
    )
    z = np.array([[-3, 0], [1, 5]], dtype=np.int32)
    out = run_unary(kernel, op, z, np.float64, *params)
    np.testing.assert_allclose(
        out, expected_float(reference, z, np.float32).astype(np.float64), **tolerance(np.float32)
    )


def check_float_op_errors(kernel: KernelRunner, op: str, *params: object) -> None:
    """An integer out (floating point results cannot go there) and a wrong
    out shape fail with one line naming the op."""
    cases = [
        [In(np.array([1, 2], dtype=np.int32)), *params, Out(np.int32, (2,))],
        [In(np.array([1.5], dtype=np.float32)), *params, Out(np.bool_, (1,))],
        [In(np.ones((2, 2), dtype=np.float32)), *params, Out(np.float32, (4,))],
    ]
    for args in cases:
        assert_fails(kernel, op, args)


def check_bfloat16(
    kernel: KernelRunner, op: str, reference: Callable[[np.ndarray], np.ndarray], *params: object
) -> None:
    """npy has no bfloat16: runs float32 -> bfloat16 -> op -> float32 in one program
    (casting with _to_dim_order_copy) and compares with reference on the rounded input."""
    x = np.array([-3.0, -1.25, -0.5, 0.0, 0.3, 0.75, 1.5, 2.0, 7.0], dtype=np.float32)
    (out,) = run_bfloat16(kernel, op, [In(x), *params, Out(np.float32, x.shape)])
    with np.errstate(all="ignore"):
        expected = to_bfloat16(reference(to_bfloat16(x).astype(np.float64)).astype(np.float32))
    np.testing.assert_allclose(out, expected, rtol=8e-3, atol=1e-6)
