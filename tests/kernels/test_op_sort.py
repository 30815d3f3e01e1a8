from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails
from tests.kernels.sort_cases import stable_order

OP = "aten::sort.values"
STABLE_OP = "aten::sort.values_stable"


def run(
    kernel: KernelRunner, x: np.ndarray, dim: int, descending: bool, stable: object = None
) -> None:
    values, indices = stable_order(x, dim, descending)
    outs = [Out(x.dtype, x.shape), Out(np.int64, x.shape)]
    if stable is None:
        got = kernel.run(OP, [In(x), dim, descending, *outs])
    else:
        got = kernel.run(
            STABLE_OP, [In(x), None if stable == "none" else stable, dim, descending, *outs]
        )
    np.testing.assert_array_equal(got[0], values)
    if stable in (False, "none"):
        # An unstable sort may order ties either way: the indices must be a permutation
        # along dim that picks the values.
        np.testing.assert_array_equal(np.take_along_axis(x, got[1], dim), got[0])
        np.testing.assert_array_equal(np.sort(got[1], dim), np.indices(x.shape)[dim])
    else:
        np.testing.assert_array_equal(got[1], indices)


@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.array([[3, 1, 4, 1, 5], [0, 2, 6, 5, 3]]).astype(dtype)
    run(kernel, x, -1, False, True)
    run(kernel, x, 1, True, True)
    run(kernel, x, 0, False, True)


def test_dims_duplicates_and_flags(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 5, (3, 4, 6)).astype(np.float32)
    for dim in (0, 1, 2, -2):
        for descending in (False, True):
            run(kernel, x, dim, descending, True)
            run(kernel, x, dim, descending, "none")
            run(kernel, x, dim, descending, False)
    y = rng.permutation(40).astype(np.int64).reshape(5, 8)  # no ties: any sort agrees
    run(kernel, y, 1, False)
    run(kernel, y, 0, True)


def test_nan_inf_empty_and_0_dim(kernel: KernelRunner) -> None:
    x = np.array([1.0, np.nan, -np.inf, np.inf, -0.5, np.nan, 2.0], np.float64)
    run(kernel, x, 0, False, True)
    run(kernel, x, 0, True, True)
    run(kernel, x.astype(np.float16), 0, True, True)
    run(kernel, np.zeros((0, 3), np.int32), 1, False, True)
    run(kernel, np.zeros((2, 0), np.int32), 1, True, True)
    run(kernel, np.array(4.5, np.float32), 0, False)
    run(kernel, np.array(4.5, np.float32), -1, True, True)
    wide = np.array([2**62, -(2**62), 2**62 + 1, 7], np.int64)  # beyond double precision
    run(kernel, wide, 0, False, True)


def test_layouts(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::-1, :].copy()
    values, indices = stable_order(x, 1, False)
    got = kernel.run(
        OP,
        [
            In(x, (0, 2, 1)),
            1,
            False,
            Out(np.float32, x.shape, (2, 0, 1)),
            Out(np.int64, x.shape, (1, 2, 0)),
        ],
    )
    np.testing.assert_array_equal(got[0], values)
    np.testing.assert_array_equal(got[1], indices)


def test_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([0.3, -1.5, 7.0, 2.0, -0.25], np.float32)
    values, indices = stable_order(to_bfloat16(x), 0, True)
    got = run_bfloat16(
        kernel, OP, [In(x), 0, True, Out(np.float32, x.shape), Out(np.int64, x.shape)]
    )
    np.testing.assert_array_equal(got[0], values)
    np.testing.assert_array_equal(got[1], indices)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        (Out(np.float64, (2, 3)), Out(np.int64, (2, 3)), 1, "values must have self's dtype"),
        (Out(np.float32, (2, 3)), Out(np.int32, (2, 3)), 1, "indices must be int64"),
        (Out(np.float32, (2, 3)), Out(np.int64, (2, 3)), 2, "dim is out of range"),
        (Out(np.float32, (2, 2)), Out(np.int64, (2, 3)), 1, "wrong shape"),
    ]
    for values, indices, dim, message in cases:
        assert_fails(kernel, OP, [In(x), dim, False, values, indices], message)
