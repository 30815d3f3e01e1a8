from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import LENGTHS, assert_both_fail, assert_matches, random

OP = "aten::eq.Scalar_out"

# Values hitting each scalar below, and the ones that must not match.
SPECIAL = np.array(
    [-np.inf, np.inf, np.nan, 0.0, -0.0, 3.0, np.float32(0.1), 0.1000001, 1e-40, -2.5],
    np.float32,
)


@pytest.mark.parametrize("value", [float("-inf"), float("nan"), 0, -0.0, 3, 0.1, 1e-40])
def test_eq_scalar_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, value: object
) -> None:
    for n in LENGTHS:
        x = np.concatenate([SPECIAL, random((n,), n)]).astype(np.float32)
        args = [In(x), value, Out(np.bool_, x.shape)]
        (out,) = assert_matches(optimized, kernel, OP, args)
        # The scalar is converted to float first (0.1 matches float32(0.1)); NaN matches nothing.
        np.testing.assert_array_equal(out, x == np.float32(value))


def test_eq_scalar_other_layouts_and_dtypes(optimized: KernelRunner, kernel: KernelRunner) -> None:
    last = (0, 2, 3, 1)
    x = np.round(random((2, 3, 4, 5), 1))
    calls = [
        [In(x, last), 1.0, Out(np.bool_, x.shape, last)],  # one layout: the loop
        [In(x, last), 1.0, Out(np.bool_, x.shape)],  # portable's walk
        [In(x), 1.0, Out(np.float32, x.shape)],  # a Float out
        [In(x > 0), True, Out(np.bool_, x.shape)],  # Bool self
        [In(x), True, Out(np.bool_, x.shape)],  # a bool scalar
        [In(x > 0), 1, Out(np.bool_, x.shape)],  # Bool against an integer: compared in Long
        [In(x.astype(np.int64)), 1, Out(np.bool_, x.shape)],
        [In(x.astype(np.int64)), 1.0, Out(np.bool_, x.shape)],
        [In(np.float32(-np.inf)), float("-inf"), Out(np.bool_, ())],
    ]
    for args in calls:
        (out,) = assert_matches(optimized, kernel, OP, args)
        assert out.tobytes() == kernel.run(OP, args)[0].tobytes()


def test_eq_scalar_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 2)
    assert_both_fail(optimized, kernel, OP, [In(x), 1.0, Out(np.bool_, (3, 2))], "")
