from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::slice_copy.Tensor_out"


@pytest.mark.parametrize("dtype", ALL)
def test_slice_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(30).reshape(3, 10) % 7).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 1, 1, 8, 3, Out(dtype, (3, 3))])
    np.testing.assert_array_equal(out, x[:, 1:8:3])


@pytest.mark.parametrize(
    ("start", "end", "step"),
    [(None, None, 1), (-3, None, 1), (None, -2, 2), (5, 100, 1), (8, 2, 1), (-100, 4, 3)],
)
def test_slice_bounds_clamp_like_torch(
    kernel: KernelRunner, start: int | None, end: int | None, step: int
) -> None:
    x = np.arange(10, dtype=np.int64)
    expected = x[slice(max(start, -10) if start is not None else None, end, step)]
    (out,) = kernel.run(OP, [In(x), 0, start, end, step, Out(np.int64, expected.shape)])
    np.testing.assert_array_equal(out, expected)


def test_slice_bad_step_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [In(np.ones((4,), np.float32)), 0, 0, 4, 0, Out(np.float32, (4,))])


# Note [A step past the extent]: stride * step and end - start + step - 1 overflowed (the
# runner fuzz, seed 22 case 164,702: an lstm program's step of 1 made 2606879832008804123).
@pytest.mark.parametrize("step", [5, 2**62, 2**63 - 1])
def test_slice_step_past_the_extent_takes_one_entry(
    sanitized_kernel: KernelRunner, step: int
) -> None:
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    (out,) = sanitized_kernel.run(OP, [In(x), 0, 1, None, step, Out(np.int32, (1, 4))])
    np.testing.assert_array_equal(out, x[1::step])
