from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, KernelRunner, Out, assert_fails

OP = "aten::full.out"


@pytest.mark.parametrize("dtype", ALL)
def test_full_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    (out,) = kernel.run(OP, [IntList((2, 3)), 1, Out(dtype, (2, 3))])
    np.testing.assert_array_equal(out, np.ones((2, 3), dtype))


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        (2.5, np.float32),
        (-7, np.int64),
        (True, np.bool_),
        (0.5, np.bool_),
        (float("inf"), np.float16),
        (float("nan"), np.float64),
        (3.9, np.int32),
    ],
)
def test_full_values(kernel: KernelRunner, value: float, dtype: type) -> None:
    (out,) = kernel.run(OP, [IntList((3,)), value, Out(dtype, (3,))])
    expected = np.full((3,), int(value) if np.dtype(dtype).kind in "iu" else value).astype(dtype)
    np.testing.assert_array_equal(out, expected)


def test_full_0_dim_and_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [IntList(()), 4, Out(np.int16, ())])
    assert out.shape == () and out == 4
    (out,) = kernel.run(OP, [IntList((0, 4)), 4, Out(np.int16, (0, 4))])
    assert out.shape == (0, 4)


def test_full_wrong_shape_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [IntList((2, 2)), 1.0, Out(np.float32, (3,))])
