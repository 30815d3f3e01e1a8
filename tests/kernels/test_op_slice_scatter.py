from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::slice_scatter.out"


def reference(
    x: np.ndarray, src: np.ndarray, dim: int, start: int | None, end: int | None, step: int
) -> np.ndarray:
    out = x.copy()
    where = [slice(None)] * x.ndim
    where[dim] = slice(start, end, step)
    out[tuple(where)] = src
    return out


@pytest.mark.parametrize("dtype", ALL)
def test_slice_scatter_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((3, 4), dtype)
    src = (np.arange(6).reshape(3, 2) % 2 + 1).astype(dtype)
    (out,) = kernel.run(OP, [In(x), In(src), 1, 0, 4, 2, Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, src, 1, 0, 4, 2))


@pytest.mark.parametrize(
    ("start", "end", "step"), [(None, None, 1), (-2, None, 1), (1, 100, 2), (3, 1, 1)]
)
def test_slice_scatter_bounds_and_layouts(
    kernel: KernelRunner, start: int | None, end: int | None, step: int
) -> None:
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    length = len(range(5)[slice(start, end, step)])
    src = -np.arange(length * 4, dtype=np.float32).reshape(length, 4)
    (out,) = kernel.run(OP, [In(x, (1, 0)), In(src), 0, start, end, step, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, reference(x, src, 0, start, end, step))


def test_slice_scatter_errors(kernel: KernelRunner) -> None:
    x = np.zeros((3, 4), np.float32)
    out = Out(np.float32, (3, 4))
    assert_fails(
        kernel, OP, [In(x), In(np.ones((3, 3), np.float32)), 1, 0, 4, 2, out], "slice's length"
    )
    assert_fails(
        kernel,
        OP,
        [In(x), In(np.ones((3, 2), np.float32)), 1, 0, 4, 0, out],
        "step must be positive",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), In(np.ones((3, 2), np.int32)), 1, 0, 4, 2, out],
        "src must have self's dtype",
    )


@pytest.mark.parametrize("step", [5, 2**62, 2**63 - 1])
def test_slice_scatter_step_past_the_extent(sanitized_kernel: KernelRunner, step: int) -> None:
    """Note [A step past the extent]: one row replaced, no overflow."""
    x = np.zeros((3, 4), np.int32)
    src = np.arange(1, 5, dtype=np.int32).reshape(1, 4)
    (out,) = sanitized_kernel.run(OP, [In(x), In(src), 0, 1, None, step, Out(np.int32, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, src, 0, 1, None, step))
