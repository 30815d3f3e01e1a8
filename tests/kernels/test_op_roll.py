from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::roll.out"


@pytest.mark.parametrize("dtype", ALL)
def test_roll_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((1,)), IntList((1,)), Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, np.roll(x, 1, 1))


@pytest.mark.parametrize(
    ("shifts", "dims"),
    [((-1, 5), (0, 2)), ((7,), ()), ((-13,), ()), ((2, 1), (1, 1)), ((0,), (-1,))],
)
def test_roll_shifts_dims_and_layouts(
    kernel: KernelRunner, shifts: tuple[int, ...], dims: tuple[int, ...]
) -> None:
    x = np.arange(24, dtype=np.float32).reshape(3, 2, 4)
    expected = np.roll(x, shifts, dims) if dims else np.roll(x, shifts[0])
    (out,) = kernel.run(
        OP, [In(x, (2, 0, 1)), IntList(shifts), IntList(dims), Out(np.float32, x.shape)]
    )
    np.testing.assert_array_equal(out, expected)


def test_roll_empty_and_errors(kernel: KernelRunner) -> None:
    (out,) = kernel.run(
        OP, [In(np.zeros((0, 3), np.int8)), IntList((2,)), IntList(()), Out(np.int8, (0, 3))]
    )
    assert out.shape == (0, 3)
    (out,) = kernel.run(
        OP, [In(np.zeros((0, 3), np.int8)), IntList((2,)), IntList((0,)), Out(np.int8, (0, 3))]
    )
    assert out.shape == (0, 3)
    x = np.ones((3, 4), np.float32)
    out = Out(np.float32, (3, 4))
    assert_fails(kernel, OP, [In(x), IntList((1, 2)), IntList((0,)), out], "one entry per dim")
    assert_fails(kernel, OP, [In(x), IntList((1, 2)), IntList(()), out], "one entry per dim")
    assert_fails(kernel, OP, [In(x), IntList((1,)), IntList((2,)), out], "dim is out of range")
