"""Shared inputs, torch's type promotion and a runner for the binary kernel tests."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from tests.kernels.harness import (
    ALL,
    FLOATING,
    INTEGER,
    REAL,
    In,
    KernelFailed,
    KernelRunner,
    Out,
    assert_fails,
    assert_same,
)


def _category(dtype: np.dtype) -> int:
    if dtype == np.bool_:
        return 0
    return 1 if np.issubdtype(dtype, np.integer) else 2


def promote(a: type | np.dtype, b: type | np.dtype) -> np.dtype:
    """torch.promote_types (numpy's, except an integer never widens a float)."""
    a, b = np.dtype(a), np.dtype(b)
    if _category(a) != _category(b):
        return a if _category(a) > _category(b) else b
    return np.promote_types(a, b)


def result_type(x: np.ndarray, y: np.ndarray) -> np.dtype:
    """torch.result_type of two tensors (a 0-dim one only wins by category)."""
    if (x.ndim == 0) == (y.ndim == 0):
        return promote(x.dtype, y.dtype)
    dimensioned, zero_dim = (x, y) if x.ndim else (y, x)
    if _category(zero_dim.dtype) > _category(dimensioned.dtype):
        return promote(dimensioned.dtype, zero_dim.dtype)
    return dimensioned.dtype


def scalar_result_type(dtype: type | np.dtype, scalar: object) -> np.dtype:
    """torch.result_type of a tensor and a Python scalar."""
    dtype = np.dtype(dtype)
    if isinstance(scalar, bool):
        return dtype
    if isinstance(scalar, float):
        return dtype if _category(dtype) == 2 else np.dtype(np.float32)
    return np.dtype(np.int64) if dtype == np.bool_ else dtype


def sample(dtype: type, shape: tuple[int, ...] = (2, 3), seed: int = 0) -> np.ndarray:
    """Values spanning the dtype's interesting range (extremes for integers)."""
    count = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    if dtype is np.bool_:
        return rng.integers(0, 2, count).astype(bool).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, 2, 7, 3, 100], dtype=np.int64)
        if info.min < 0:
            pool = np.concatenate([pool, [-1, -5, info.min + 1, -100]])
        pool = np.clip(pool, info.min, info.max)
        return rng.permutation(np.resize(pool, count)).astype(dtype).reshape(shape)
    pool = np.array([-2.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.5, 2.5, 3.0, -7.25, 100.0, 6.0])
    return rng.permutation(np.resize(pool, count)).astype(dtype).reshape(shape)


def nonzero(x: np.ndarray) -> np.ndarray:
    """x with zeros replaced (divisors for integer division)."""
    y = x.copy()
    y[y == 0] = 3
    return y


def run(kernel: KernelRunner, op: str, *args: object) -> np.ndarray:
    (out,) = kernel.run(op, list(args))
    return out


def quiet(fn: Callable[[], np.ndarray]) -> np.ndarray:
    """A numpy reference computed without its overflow/division warnings."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn()


__all__ = [
    "ALL",
    "FLOATING",
    "INTEGER",
    "REAL",
    "In",
    "KernelFailed",
    "Out",
    "assert_fails",
    "assert_same",
    "nonzero",
    "promote",
    "quiet",
    "result_type",
    "run",
    "sample",
    "scalar_result_type",
]


def wrap(values: object, dtype: type | np.dtype) -> np.ndarray:
    """Python ints wrapped into an integer dtype (two's complement), as torch's arithmetic does."""
    dtype = np.dtype(dtype)
    bits = dtype.itemsize * 8
    array = np.array(values, dtype=object)
    wrapped = (array % (1 << bits)).astype(np.uint64)
    return wrapped.astype(dtype)


def int_reference(
    fn: Callable[[int, int], int], x: np.ndarray, y: np.ndarray, dtype: type | np.dtype
) -> np.ndarray:
    """fn over broadcast Python ints, wrapped into `dtype`."""
    a, b = np.broadcast_arrays(x, y)
    values = [fn(int(p), int(q)) for p, q in zip(a.ravel(), b.ravel(), strict=True)]
    return wrap(values, dtype).reshape(a.shape)


def trunc_div(p: int, q: int) -> int:
    quotient = abs(p) // abs(q)
    return quotient if (p < 0) == (q < 0) else -quotient


def floor_div(p: int, q: int) -> int:
    return p // q
