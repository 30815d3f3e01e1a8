from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, OutList, assert_fails

OP = "aten::split_copy.Tensor_out"


def reference(x: np.ndarray, size: int, dim: int) -> list[np.ndarray]:
    """torch.split: parts of `size` entries, the last one what is left (one part when empty)."""
    extent = x.shape[dim]
    if extent == 0:
        return [x]
    return np.split(x, range(size, extent, size), axis=dim)


def run(kernel: KernelRunner, x: np.ndarray, size: int, dim: int, order: object = None) -> None:
    expected = reference(x, size, dim)
    outs = OutList(tuple(Out(x.dtype, part.shape) for part in expected))
    got = kernel.run(OP, [In(x, order), size, dim, outs])  # type: ignore[arg-type]
    assert len(got) == len(expected)
    for out, part in zip(got, expected, strict=True):
        np.testing.assert_array_equal(out, part)


@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    run(kernel, (np.arange(15).reshape(3, 5) % 4).astype(dtype), 2, 1)


def test_sizes_dims_and_layouts(kernel: KernelRunner) -> None:
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    run(kernel, x, 1, 0)
    run(kernel, x, 3, 0)
    run(kernel, x, 10, -1)
    run(kernel, x, 3, 1, (2, 0, 1))
    run(kernel, np.zeros((0, 2), np.int8), 2, 0)
    run(kernel, np.zeros((0, 2), np.int8), 0, 0)
    run(kernel, np.array([np.nan, np.inf, -np.inf], np.float16), 2, 0)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        (0, 1, (Out(np.float32, (2, 3)),), "split_size must be positive"),
        (2, 1, (Out(np.float32, (2, 2)),), "one tensor per part"),
        (2, 1, (Out(np.float32, (2, 2)), Out(np.float64, (2, 1))), "self's dtype"),
        (2, 1, (Out(np.float32, (2, 2)), Out(np.float32, (2, 2))), "wrong shape"),
    ]
    for size, dim, outs, message in cases:
        assert_fails(kernel, OP, [In(x), size, dim, OutList(outs)], message)
