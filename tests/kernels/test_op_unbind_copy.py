from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, OutList, assert_fails

OP = "aten::unbind_copy.int_out"


def run(
    kernel: KernelRunner, x: np.ndarray, dim: int, order: tuple[int, ...] | None = None
) -> None:
    expected = [np.array(part) for part in np.moveaxis(x, dim, 0)]  # keeps 0-dim parts
    outs = OutList(tuple(Out(x.dtype, part.shape) for part in expected))
    got = kernel.run(OP, [In(x, order), dim, outs])
    assert len(got) == len(expected)
    for out, part in zip(got, expected, strict=True):
        np.testing.assert_array_equal(out, part)


@pytest.mark.parametrize("dtype", ALL)
def test_unbind_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    run(kernel, (np.arange(12).reshape(3, 4) % 5).astype(dtype), 1)


def test_unbind_dims_layouts_and_1_dim(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    run(kernel, x, 0)
    run(kernel, x, -1, (2, 0, 1))
    run(kernel, np.arange(3, dtype=np.int64), 0)


def test_unbind_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    two = OutList((Out(np.float32, (3,)), Out(np.float32, (3,))))
    assert_fails(kernel, OP, [In(x), 1, two], "one tensor per entry")
    assert_fails(kernel, OP, [In(x), 2, two], "dim is out of range")
    assert_fails(
        kernel,
        OP,
        [In(x), 0, OutList((Out(np.float32, (3,)), Out(np.int32, (3,))))],
        "self's dtype",
    )
    assert_fails(kernel, OP, [In(np.array(1.0, np.float32)), 0, two], "at least 1 dim")
