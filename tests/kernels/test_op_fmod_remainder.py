from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import (
    FLOATING,
    INTEGER,
    REAL,
    In,
    Out,
    assert_fails,
    assert_same,
    int_reference,
    nonzero,
    quiet,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelRunner


def fmod_int(p: int, q: int) -> int:
    """C's %: the result takes the dividend's sign."""
    return (abs(p) % abs(q)) * (1 if p >= 0 else -1)


def remainder_int(p: int, q: int) -> int:
    """Python's %: the result takes the divisor's sign."""
    return 0 if q == -1 else p % q


# One module for fmod and remainder (they differ in the sign of a nonzero result).
@dataclass(frozen=True)
class Modulo:
    name: str
    int_fn: Callable[[int, int], int]
    float_fn: np.ufunc

    @property
    def op(self) -> str:
        return f"aten::{self.name}.Tensor_out"

    @property
    def scalar_op(self) -> str:
        return f"aten::{self.name}.Scalar_out"

    def reference(self, x: np.ndarray, y: np.ndarray, dtype: np.dtype) -> np.ndarray:
        if np.issubdtype(dtype, np.integer):
            return int_reference(self.int_fn, x, y, dtype)
        return quiet(lambda: self.float_fn(x.astype(dtype), y.astype(dtype)))


MODULOS = [Modulo("fmod", fmod_int, np.fmod), Modulo("remainder", remainder_int, np.remainder)]


@pytest.fixture(params=MODULOS, ids=[m.name for m in MODULOS])
def modulo(request: pytest.FixtureRequest) -> Modulo:
    return request.param


@pytest.mark.parametrize("dtype", REAL)
def test_modulo_result_sign(modulo: Modulo, kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (3, 4), 1), sample(dtype, (4,), 2)
    if np.issubdtype(dtype, np.integer):
        y = nonzero(y)
    out = kernel.run(modulo.op, [In(x), In(y), Out(dtype, (3, 4))])[0]
    assert_same(out, modulo.reference(x, y, np.dtype(dtype)))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("other", [3, -2.5])
def test_modulo_scalar(modulo: Modulo, kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 5), 3)
    common = scalar_result_type(dtype, other)
    out = kernel.run(modulo.scalar_op, [In(x), other, Out(common, x.shape)])[0]
    assert_same(out, modulo.reference(x, np.array(other).astype(common), common))


@pytest.mark.parametrize("dtype", FLOATING)
def test_modulo_float_edges(modulo: Modulo, kernel: KernelRunner, dtype: type) -> None:
    x = np.array([5.0, -5.0, 1.0, np.inf, np.nan, -1.0, 0.0], dtype=dtype)
    y = np.array([0.0, 3.0, -np.inf, 2.0, 1.0, np.inf, -2.0], dtype=dtype)
    assert_same(
        kernel.run(modulo.op, [In(x), In(y), Out(dtype, x.shape)])[0],
        modulo.reference(x, y, np.dtype(dtype)),
    )


@pytest.mark.parametrize("dtype", INTEGER)
def test_modulo_mixed_and_zero_dim(modulo: Modulo, kernel: KernelRunner, dtype: type) -> None:
    op = modulo.op
    x = (
        np.array([-7, 7, 0], dtype=dtype)
        if np.iinfo(dtype).min < 0
        else np.array([9, 7, 0], dtype=dtype)
    )
    y = np.array(4, dtype=np.int64)
    assert_same(
        kernel.run(op, [In(x), In(y), Out(dtype, (3,))])[0],
        modulo.reference(x, np.array(4, dtype), np.dtype(dtype)),
    )
    f = np.array(2.5, dtype=np.float32)
    assert_same(
        kernel.run(op, [In(x), In(f), Out(np.float32, (3,))])[0],
        modulo.reference(x, f, np.dtype(np.float32)),
    )
    e = np.zeros((0,), dtype=dtype)
    assert kernel.run(modulo.scalar_op, [In(e), 0, Out(dtype, (0,))])[0].shape == (0,)


def test_modulo_errors(modulo: Modulo, kernel: KernelRunner) -> None:
    op, scalar_op = modulo.op, modulo.scalar_op
    i = np.array([4, 5], dtype=np.int64)
    assert_fails(
        kernel, op, [In(i), In(np.array([1, 0], np.int64)), Out(np.int64, (2,))], "division by zero"
    )
    assert_fails(kernel, scalar_op, [In(i), 0, Out(np.int64, (2,))], "division by zero")
    b = np.array([True])
    assert_fails(kernel, op, [In(b), In(b), Out(np.bool_, (1,))], "bool")
    assert_fails(kernel, scalar_op, [In(i), 1.5, Out(np.int64, (2,))], "cast")


def test_modulo_bfloat16(modulo: Modulo, kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[5.5, -5.5, 7.0], [-7.0, 1.0, 3.0]]), np.array([2.0, 2.0, -3.0])
    )
    (got,) = run_bfloat16(kernel, modulo.op, [In(x), In(y), Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, modulo.float_fn(x, y))
    (got,) = run_bfloat16(kernel, modulo.scalar_op, [In(x), 3, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, modulo.float_fn(x, np.float32(3)))
