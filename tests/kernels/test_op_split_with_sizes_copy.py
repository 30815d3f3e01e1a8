from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, OutList, assert_fails

OP = "aten::split_with_sizes_copy.out"


def run(
    kernel: KernelRunner, x: np.ndarray, sizes: tuple[int, ...], dim: int, order: object = None
) -> None:
    expected = np.split(x, np.cumsum(sizes)[:-1], axis=dim) if sizes else []
    outs = OutList(tuple(Out(x.dtype, part.shape) for part in expected))
    got = kernel.run(OP, [In(x, order), IntList(sizes), dim, outs])  # type: ignore[arg-type]
    assert len(got) == len(expected)
    for out, part in zip(got, expected, strict=True):
        np.testing.assert_array_equal(out, part)


@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    run(kernel, (np.arange(12).reshape(3, 4) % 5).astype(dtype), (1, 3), 1)


def test_dims_sizes_and_layouts(kernel: KernelRunner) -> None:
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    run(kernel, x, (2, 0, 1), 0)
    run(kernel, x, (4,), 1)
    run(kernel, x, (1, 1, 3), -1)
    run(kernel, x, (3, 1), 1, (0, 2, 1))
    run(kernel, np.zeros((0, 3), np.int64), (0, 0), 0)
    run(kernel, np.zeros((2, 0), np.int64), (), 1)
    run(kernel, np.array([np.nan, np.inf, -1.0], np.float64), (1, 2), 0)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        ((1, 1), 1, (Out(np.float32, (2, 1)), Out(np.float32, (2, 1))), "add up"),
        ((4, -1), 1, (Out(np.float32, (2, 4)), Out(np.float32, (2, 0))), "must not be negative"),
        ((1, 2), 1, (Out(np.float32, (2, 1)),), "one tensor per part"),
        ((1, 2), 1, (Out(np.float32, (2, 1)), Out(np.int32, (2, 2))), "self's dtype"),
        ((1, 2), 1, (Out(np.float32, (2, 1)), Out(np.float32, (2, 3))), "wrong shape"),
        ((1, 2), 2, (Out(np.float32, (2, 1)), Out(np.float32, (2, 2))), "dim is out of range"),
    ]
    for sizes, dim, outs, message in cases:
        assert_fails(kernel, OP, [In(x), IntList(sizes), dim, OutList(outs)], message)
    assert_fails(
        kernel,
        OP,
        [In(np.array(1.0, np.float32)), IntList((1,)), 0, OutList((Out(np.float32, ()),))],
        "at least 1 dim",
    )
