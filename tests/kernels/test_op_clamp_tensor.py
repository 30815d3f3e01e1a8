"""clamp.Tensor_out (clamp.out, with Scalar bounds, is tested in test_op_clamp.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import REAL, In, KernelFailed, KernelRunner, Out, assert_fails

OP = "aten::clamp.Tensor_out"


def reference(
    x: np.ndarray, lo: np.ndarray | None, hi: np.ndarray | None, dtype: type
) -> np.ndarray:
    """torch.clamp with tensor bounds, computed in `dtype`: NaN anywhere gives NaN, max wins."""
    with np.errstate(invalid="ignore"):
        y = x.astype(dtype)
        if lo is not None:
            lo = lo.astype(dtype)
            y = (
                np.where(np.isnan(lo) | (y < lo), lo, y)
                if lo.dtype.kind == "f"
                else np.maximum(y, lo)
            )
        if hi is not None:
            hi = hi.astype(dtype)
            y = (
                np.where(np.isnan(hi) | (y > hi), hi, y)
                if hi.dtype.kind == "f"
                else np.minimum(y, hi)
            )
        if y.dtype.kind == "f":
            y = np.where(np.isnan(x.astype(dtype)), x.astype(dtype), y)
    return np.asarray(y, dtype)


def run(
    kernel: KernelRunner,
    x: np.ndarray,
    lo: np.ndarray | None,
    hi: np.ndarray | None,
    dtype: type,
    out: type | None = None,
) -> None:
    expected = reference(x, lo, hi, dtype)
    args = [
        In(x),
        None if lo is None else In(lo),
        None if hi is None else In(hi),
        Out(out or dtype, expected.shape),
    ]
    (got,) = kernel.run(OP, args)
    np.testing.assert_array_equal(got, expected.astype(out or dtype))


@pytest.mark.parametrize("dtype", REAL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 9).astype(dtype)
    lo = np.array([1, 2, 0, 3]).astype(dtype)
    hi = np.array([[5], [4], [7]]).astype(dtype)
    run(kernel, x, lo, hi, dtype)
    run(kernel, x, None, hi, dtype)
    run(kernel, x, lo, None, dtype)


def test_promotion(kernel: KernelRunner) -> None:
    x = np.array([0, 3, 6, 9], np.int32)
    run(kernel, x, np.array([1.5, 1.5, 1.5, 1.5], np.float32), None, np.float32)
    run(
        kernel, x, np.array(2.5, np.float64), np.array([7, 7, 7, 7], np.int64), np.float64
    )  # 0-dim float wins
    run(kernel, x, np.array(2, np.int64), None, np.int32)  # 0-dim integer does not
    run(kernel, x, np.array(2, np.int64), None, np.int32, np.float32)  # any out the result casts to
    run(
        kernel,
        np.array([True, False]),
        np.array([0, 0], np.uint8),
        np.array([0, 1], np.int8),
        np.int16,
    )
    run(
        kernel,
        np.array([1.0, 5.0, 9.0], np.float16),
        np.array([2.0, 2.0, 2.0], np.float32),
        None,
        np.float32,
    )


def test_nan_inf_min_above_max_and_shapes(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -np.inf, np.inf, -0.5, 0.25, 3.0], np.float32)
    run(kernel, x, np.full(6, -0.25, np.float32), np.full(6, 1.0, np.float32), np.float32)
    run(
        kernel,
        np.ones(3, np.float64),
        np.array([np.nan, 0.0, 0.0]),
        np.array([2.0, np.nan, 2.0]),
        np.float64,
    )
    run(
        kernel, np.arange(5, dtype=np.int64), np.array(4, np.int64), np.array(1, np.int64), np.int64
    )  # max wins
    run(
        kernel,
        np.array(5.0, np.float32),
        np.array(1.0, np.float32),
        np.array(2.0, np.float32),
        np.float32,
    )
    run(kernel, np.zeros((0, 3), np.float32), np.zeros(3, np.float32), None, np.float32)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    lo = np.full((3, 1), 4.0, np.float32)
    (got,) = kernel.run(OP, [In(x, (0, 2, 1)), In(lo), None, Out(np.float32, x.shape, (2, 0, 1))])
    np.testing.assert_array_equal(got, np.maximum(x, lo))


def test_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([0.3, -1.5, 7.0, 2.0], np.float32)
    lo = np.array([0.0, 0.0, 0.0, 2.5], np.float32)
    (got,) = run_bfloat16(kernel, OP, [In(x), In(lo), None, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(got, np.maximum(to_bfloat16(x), to_bfloat16(lo)))


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        (None, None, Out(np.float32, (2, 3)), "at least one of min and max"),
        (In(np.ones(2, np.float32)), None, Out(np.float32, (2, 3)), "cannot be broadcast"),
        (In(np.ones(3, np.float32)), None, Out(np.int32, (2, 3)), "cannot be cast"),
        (In(np.ones(3, np.float32)), None, Out(np.float32, (3, 3)), "wrong shape"),
    ]
    for lo, hi, out, message in cases:
        assert_fails(kernel, OP, [In(x), lo, hi, out], message)
    with pytest.raises(
        KernelFailed, match="aten::clamp.Tensor_out: clamp is not supported for bool"
    ):
        kernel.run(
            OP, [In(np.ones(2, np.bool_)), In(np.zeros(2, np.bool_)), None, Out(np.bool_, (2,))]
        )
