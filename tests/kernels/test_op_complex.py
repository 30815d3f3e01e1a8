"""_conj_physical.out and view_as_real_copy.out, the two complex operators: on ComplexFloat
inputs (the complex dtype .npy and the runner carry), and on ComplexHalf and ComplexDouble
constants whose parts come out through view_as_real_copy."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import In, KernelRunner, Out, assert_fails, assert_same

CONJ = "aten::_conj_physical.out"
REAL = "aten::view_as_real_copy.out"


def sample(shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape))
    real = np.resize(np.array([1.5, -2.0, 0.0, -0.0, np.inf, np.nan, 3.25]), count)
    imag = np.resize(np.array([-0.5, 0.0, -0.0, 7.0, -np.inf, 2.0, np.nan, 1.0]), count)
    # Parts set one by one: real + 1j * imag would mix an infinite part into the other.
    x = np.empty(count, dtype=np.complex64)
    x.real, x.imag = real, imag
    return x.reshape(shape)


def test_conj_negates_imaginary_parts(kernel: KernelRunner) -> None:
    x = sample((3, 5))
    (out,) = kernel.run(CONJ, [In(x), Out(np.complex64, x.shape)])
    assert_same(out, np.conj(x))
    # -0.0 and 0.0 swap: the sign bit flips, as torch's negation.
    assert_same(np.signbit(out.imag), ~np.signbit(x.imag))


def test_view_as_real_splits_parts(kernel: KernelRunner) -> None:
    x = sample((2, 3))
    (out,) = kernel.run(REAL, [In(x), Out(np.float32, (2, 3, 2))])
    assert_same(out, np.stack([x.real, x.imag], axis=-1))


def test_strided_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = sample((2, 3, 4))
    (out,) = kernel.run(CONJ, [In(x, (2, 0, 1)), Out(np.complex64, x.shape, (1, 2, 0))])
    assert_same(out, np.conj(x))
    (out,) = kernel.run(REAL, [In(x, (1, 2, 0)), Out(np.float32, (2, 3, 4, 2))])
    assert_same(out, np.stack([x.real, x.imag], axis=-1))
    z = np.array(1 - 2j, dtype=np.complex64)
    assert_same(kernel.run(CONJ, [In(z), Out(np.complex64, ())])[0], np.conj(z))
    assert_same(kernel.run(REAL, [In(z), Out(np.float32, (2,))])[0], np.array([1, -2], np.float32))
    e = np.zeros((0, 3), dtype=np.complex64)
    assert kernel.run(REAL, [In(e), Out(np.float32, (0, 3, 2))])[0].shape == (0, 3, 2)


@pytest.mark.parametrize(
    ("complex_type", "part_type", "part"),
    [
        (ScalarType.ComplexHalf, ScalarType.Half, np.float16),
        (ScalarType.ComplexDouble, ScalarType.Double, np.float64),
    ],
)
def test_half_and_double_parts(
    kernel: KernelRunner, complex_type: ScalarType, part_type: ScalarType, part: type
) -> None:
    """A constant conjugated, then split: out = [real, -imag] per element."""
    parts = np.array([[1.5, -0.5], [-2.0, 0.0], [np.inf, 3.25]], dtype=part)
    values = (
        Tensor(complex_type, (3,), constant=parts.tobytes()),
        Tensor(complex_type, (3,)),
        Tensor(part_type, (3, 2)),
    )
    calls = (
        KernelCall(OperatorName.parse(CONJ), (0, 1, 1)),
        KernelCall(OperatorName.parse(REAL), (1, 2, 2)),
    )
    (out,) = kernel.execute(Method("forward", values, (), (2,), calls), [])
    assert_same(out, parts * np.array([1, -1], dtype=part))


def test_errors_are_one_line(kernel: KernelRunner) -> None:
    x = sample((2,))
    f = np.ones(2, dtype=np.float32)
    assert_fails(kernel, CONJ, [In(f), Out(np.float32, (2,))], "dtype")
    assert_fails(kernel, CONJ, [In(x), Out(np.float32, (2,))], "self's dtype")
    assert_fails(kernel, CONJ, [In(x), Out(np.complex64, (3,))])
    assert_fails(kernel, REAL, [In(f), Out(np.float32, (2, 2))], "dtype")
    assert_fails(kernel, REAL, [In(x), Out(np.float64, (2, 2))], "real parts")
    assert_fails(kernel, REAL, [In(x), Out(np.float32, (2,))])
