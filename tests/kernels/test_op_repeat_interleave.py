from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails

OP = "aten::repeat_interleave.Tensor_out"


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_repeat_interleave(kernel: KernelRunner, dtype: type) -> None:
    repeats = np.array([2, 0, 3, 1], dtype)
    expected = np.repeat(np.arange(4), repeats).astype(dtype)
    (out,) = kernel.run(OP, [In(repeats), None, Out(dtype, (10,), dynamic=True)])
    np.testing.assert_array_equal(out, expected)
    (out,) = kernel.run(OP, [In(repeats), 6, Out(dtype, (6,))])
    np.testing.assert_array_equal(out, expected)


def test_repeat_interleave_empty(kernel: KernelRunner) -> None:
    (out,) = kernel.run(OP, [In(np.zeros(3, np.int64)), None, Out(np.int64, (4,), dynamic=True)])
    assert out.shape == (0,)


def test_repeat_interleave_errors(kernel: KernelRunner) -> None:
    r = np.array([1, 2], np.int64)
    assert_fails(
        kernel,
        OP,
        [In(np.array([1, -1], np.int64)), None, Out(np.int64, (4,), dynamic=True)],
        "non-negative",
    )
    assert_fails(kernel, OP, [In(r), 4, Out(np.int64, (4,), dynamic=True)], "output_size")
    assert_fails(
        kernel, OP, [In(r.reshape(1, 2)), None, Out(np.int64, (4,), dynamic=True)], "1-dim"
    )
    assert_fails(kernel, OP, [In(r), None, Out(np.int32, (4,), dynamic=True)], "repeats' dtype")
    assert_fails(
        kernel, OP, [In(r.astype(np.float32)), None, Out(np.float32, (4,), dynamic=True)], "dtype"
    )
    assert_fails(kernel, OP, [In(r), None, Out(np.int64, (2,), dynamic=True)], "wrong shape")
