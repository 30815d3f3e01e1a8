from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::as_strided_copy.out"


def as_strided(
    x: np.ndarray, size: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> np.ndarray:
    flat = x.reshape(-1)
    step = flat.itemsize
    view = np.lib.stride_tricks.as_strided(flat[offset:], size, tuple(s * step for s in stride))
    return np.ascontiguousarray(view)


@pytest.mark.parametrize("dtype", ALL)
def test_as_strided_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((2, 3)), IntList((1, 2)), None, Out(dtype, (2, 3))])
    np.testing.assert_array_equal(out, as_strided(x, (2, 3), (1, 2), 0))


def test_as_strided_offset_zero_stride_and_empty(kernel: KernelRunner) -> None:
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    (out,) = kernel.run(OP, [In(x), IntList((3, 2)), IntList((0, 5)), 1, Out(np.int64, (3, 2))])
    np.testing.assert_array_equal(out, as_strided(x, (3, 2), (0, 5), 1))
    (out,) = kernel.run(
        OP, [In(x), IntList((0, 9)), IntList((100, 100)), 50, Out(np.int64, (0, 9))]
    )
    assert out.shape == (0, 9)


def test_as_strided_errors(kernel: KernelRunner) -> None:
    x = np.ones((3, 4), np.float32)
    assert_fails(
        kernel,
        OP,
        [In(x), IntList((2, 3)), IntList((6, 3)), None, Out(np.float32, (2, 3))],
        "past the end",
    )
    assert_fails(
        kernel, OP, [In(x), IntList((2,)), IntList((1,)), 11, Out(np.float32, (2,))], "past the end"
    )
    huge = IntList((2**31 - 1,) * 8)  # the reach of such a view would overflow int64
    for offset in (None, 2**63 - 1):
        assert_fails(kernel, OP, [In(x), huge, huge, offset, Out(np.float32, (2,))], "past the end")
    assert_fails(
        kernel,
        OP,
        [In(x), IntList((2,)), IntList((1, 1)), None, Out(np.float32, (2,))],
        "same length",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), IntList((2,)), IntList((-1,)), None, Out(np.float32, (2,))],
        "non-negative",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), IntList((2,)), IntList((1,)), -1, Out(np.float32, (2,))],
        "storage_offset",
    )
    assert_fails(
        kernel,
        OP,
        [
            In(np.ones((1, 2, 2, 2), np.float32), (0, 2, 3, 1)),
            IntList((2,)),
            IntList((1,)),
            None,
            Out(np.float32, (2,)),
        ],
        "self must be contiguous",
    )
