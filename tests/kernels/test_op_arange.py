from __future__ import annotations

import math

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import FLOATING, REAL, KernelRunner, Out, assert_fails

OP = "aten::arange.out"
START_OP = "aten::arange.start_out"


def expected(start: float, end: float, step: float, dtype: type) -> np.ndarray:
    """torch.arange: start + i * step, computed in float for 16-bit floats, double for the
    other floats and int64 for integers, then cast."""
    if np.issubdtype(dtype, np.integer):
        start, end, step = int(start), int(end), int(step)
    n = math.ceil((end - start) / step)
    i = np.arange(n)
    compute = {np.float16: np.float32}.get(dtype, np.float64)
    if np.issubdtype(dtype, np.integer):
        return (start + step * i).astype(np.int64).astype(dtype)
    return (compute(start) + compute(step) * i.astype(compute)).astype(dtype)


@pytest.mark.parametrize("dtype", REAL)
def test_end_only(kernel: KernelRunner, dtype: type) -> None:
    (out,) = kernel.run(OP, [5, Out(dtype, (5,))])
    np.testing.assert_array_equal(out, np.arange(5).astype(dtype))
    assert out.dtype == dtype
    (out,) = kernel.run(OP, [0, Out(dtype, (0,))])
    assert out.shape == (0,)


@pytest.mark.parametrize("dtype", REAL)
def test_start_end_step(kernel: KernelRunner, dtype: type) -> None:
    for start, end, step in [(2, 9, 3), (1, 11, 2), (10, 2, -3), (3, 3, 1)]:
        ref = expected(start, end, step, dtype)
        (out,) = kernel.run(START_OP, [start, end, step, Out(dtype, ref.shape)])
        np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("dtype", FLOATING)
def test_float_steps(kernel: KernelRunner, dtype: type) -> None:
    for start, end, step in [(0.0, 1.0, 0.1), (-1.5, 2.25, 0.25), (1.0, -1.0, -0.3), (0, 2.5, 1)]:
        ref = expected(start, end, step, dtype)
        (out,) = kernel.run(START_OP, [start, end, step, Out(dtype, ref.shape)])
        np.testing.assert_array_equal(out, ref)
    (out,) = kernel.run(OP, [2.5, Out(dtype, (3,))])
    np.testing.assert_array_equal(out, np.array([0, 1, 2], dtype))


def test_dynamic_out_and_wrapping(kernel: KernelRunner) -> None:
    (out,) = kernel.run(START_OP, [1, 4, 1, Out(np.int32, (10,), dynamic=True)])
    np.testing.assert_array_equal(out, [1, 2, 3])
    (out,) = kernel.run(START_OP, [250, 260, 3, Out(np.uint8, (4,))])  # wraps like a cast
    np.testing.assert_array_equal(out, np.array([250, 253, 256, 259]).astype(np.uint8))


def test_bfloat16(kernel: KernelRunner) -> None:
    (out,) = run_bfloat16(kernel, START_OP, [-1.0, 1.0, 0.25, Out(np.float32, (8,))])
    np.testing.assert_array_equal(out, to_bfloat16(np.arange(-1.0, 1.0, 0.25, dtype=np.float32)))


def test_errors(kernel: KernelRunner) -> None:
    cases = [
        ([0, 5, 0], Out(np.float32, (0,)), "step must be nonzero"),
        ([0, 5, -1], Out(np.float32, (0,)), "inconsistent with step's sign"),
        ([5, 0, 1], Out(np.int64, (0,)), "inconsistent with step's sign"),
        ([0, float("inf"), 1], Out(np.float32, (0,)), "must be finite"),
        ([0, 5, 1], Out(np.float32, (4,)), "out has the wrong shape"),
        ([0, 5, 1], Out(np.float32, (5, 1)), "out has the wrong shape"),
        ([0, 2, 1], Out(np.bool_, (2,)), "dtype Bool"),
    ]
    for args, out, message in cases:
        assert_fails(kernel, START_OP, [*args, out], message)
    assert_fails(kernel, OP, [3, Out(np.int64, (2,))], "wrong shape")
