from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::unfold_copy.out"


def unfold(x: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    """torch.Tensor.unfold: windows along dim become that dim; a last dim walks each."""
    if x.ndim == 0:
        return x.reshape(1)[:size]
    count = (x.shape[dim] - size) // step + 1
    windows = [np.take(x, range(i * step, i * step + size), axis=dim) for i in range(count)]
    stacked = np.stack(windows, axis=dim)  # (..., count, ..., size at dim + 1, ...)
    return np.ascontiguousarray(np.moveaxis(stacked, dim + 1, -1))


@pytest.mark.parametrize("dtype", ALL)
def test_unfold_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    expected = unfold(x, 1, 2, 1)
    (out,) = kernel.run(OP, [In(x), 1, 2, 1, Out(dtype, expected.shape)])
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(("dim", "size", "step"), [(0, 2, 2), (-1, 4, 3), (1, 0, 1), (2, 1, 5)])
def test_unfold_sizes_steps_and_layouts(
    kernel: KernelRunner, dim: int, size: int, step: int
) -> None:
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    expected = unfold(x, dim % 3, size, step)
    (out,) = kernel.run(OP, [In(x, (2, 0, 1)), dim, size, step, Out(np.float32, expected.shape)])
    np.testing.assert_array_equal(out, expected)


def test_unfold_0_dim(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.array(3, np.int64)), 0, 1, 1, Out(np.int64, (1,))])
    np.testing.assert_array_equal(out, [3])


def test_unfold_errors(kernel: KernelRunner) -> None:
    x = np.ones((3, 4), np.float32)
    assert_fails(kernel, OP, [In(x), 1, 5, 1, Out(np.float32, (3, 1, 5))], "size must lie")
    assert_fails(kernel, OP, [In(x), 1, 2, 0, Out(np.float32, (3, 3, 2))], "step must be positive")
    assert_fails(kernel, OP, [In(x), 2, 2, 1, Out(np.float32, (3, 3, 2))], "dim is out of range")


@pytest.mark.parametrize("size", [0, 2])
@pytest.mark.parametrize("step", [5, 2**62, 2**63 - 1])
def test_unfold_step_past_the_extent(sanitized_kernel: KernelRunner, size: int, step: int) -> None:
    """Note [A step past the extent]: one window, its stride no overflow."""
    x = np.arange(12, dtype=np.int32).reshape(4, 3)
    expected = unfold(x, 0, size, step)
    (out,) = sanitized_kernel.run(OP, [In(x), 0, size, step, Out(np.int32, expected.shape)])
    np.testing.assert_array_equal(out, expected)
