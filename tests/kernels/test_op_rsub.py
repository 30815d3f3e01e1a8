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
    int_reference,
    sample,
    scalar_result_type,
)
from tests.kernels.harness import KernelRunner

OP = "aten::rsub.Scalar_out"


@pytest.mark.parametrize("dtype", INTEGER)
@pytest.mark.parametrize("alpha", [1, 3])
def test_rsub_integers_wrap(kernel: KernelRunner, dtype: type, alpha: int) -> None:
    x = sample(dtype, (3, 4), 1)
    out = kernel.run(OP, [In(x), 5, alpha, Out(dtype, x.shape)])[0]
    # other - alpha * self, the other and alpha taken into the dtype first.
    five = np.array(5).astype(dtype)
    assert_same(out, int_reference(lambda p, q: q - alpha * p, x, five, dtype))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize(("other", "alpha"), [(2.5, 1), (-1, 0.5)])
def test_rsub_floats(kernel: KernelRunner, dtype: type, other: object, alpha: object) -> None:
    x = np.array([-2.5, 0.0, 1.0, 3.25, np.inf, np.nan], dtype=dtype)
    out = kernel.run(OP, [In(x), other, alpha, Out(dtype, x.shape)])[0]
    expected = (np.float64(other) - np.float64(alpha) * x.astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(out, expected, rtol=1e-3 if dtype is np.float16 else 1e-6)


@pytest.mark.parametrize("dtype", REAL)
def test_rsub_float_scalar_promotes(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (2, 3), 2)
    common = scalar_result_type(dtype, 0.5)
    out = kernel.run(OP, [In(x), 0.5, 1, Out(common, x.shape)])[0]
    expected = (0.5 - x.astype(np.float64)).astype(common)
    np.testing.assert_allclose(out, expected, rtol=1e-3 if common == np.float16 else 1e-6)


def test_rsub_strided_and_empty(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    out = kernel.run(OP, [In(x, (2, 0, 1)), 1.0, 2.0, Out(np.float64, x.shape)])[0]
    assert_same(out, 1.0 - 2.0 * x)
    e = np.zeros((0, 3), dtype=np.int32)
    assert kernel.run(OP, [In(e), 1, 1, Out(np.int32, (0, 3))])[0].shape == (0, 3)


def test_rsub_errors_are_one_line(kernel: KernelRunner) -> None:
    i = np.array([1, 2], dtype=np.int32)
    b = np.array([True, False])
    assert_fails(kernel, OP, [In(b), 1, 1, Out(np.int64, (2,))])
    assert_fails(kernel, OP, [In(i), True, 1, Out(np.int32, (2,))], "bool")
    assert_fails(kernel, OP, [In(i), 1, True, Out(np.int32, (2,))], "alpha")
    assert_fails(kernel, OP, [In(i), 1, 0.5, Out(np.int32, (2,))], "alpha")
    assert_fails(kernel, OP, [In(i), 0.5, 1, Out(np.int32, (2,))])
