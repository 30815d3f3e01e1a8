from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random

OP = "aten::full_like.out"
LAST = (0, 2, 3, 1)


@pytest.mark.parametrize("value", [0, -2.5, 1e-40, float("inf"), float("nan"), True, 3])
@pytest.mark.parametrize("shape", [(), (0, 3), (7,), (17,), (1, 3, 197, 197)])
def test_full_like_matches_portable(
    optimized: KernelRunner, kernel: KernelRunner, shape: tuple[int, ...], value: object
) -> None:
    x = random(shape, len(shape))
    (out,) = assert_matches(optimized, kernel, OP, [In(x), value, None, Out(np.float32, shape)])
    # A copy of one value: exactly the value as float32 (a Double scalar rounded once).
    np.testing.assert_array_equal(out, np.full(shape, np.float32(value)))


def test_full_like_any_layout(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3, 4, 5), 1)
    for out in (Out(np.float32, x.shape, LAST), Out(np.float32, x.shape)):
        (got,) = assert_matches(optimized, kernel, OP, [In(x, LAST), 0.5, None, out])
        assert (got == 0.5).all()


def test_full_like_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 2)
    assert_both_fail(optimized, kernel, OP, [In(x), 1.0, None, Out(np.float32, (3, 2))], "")
