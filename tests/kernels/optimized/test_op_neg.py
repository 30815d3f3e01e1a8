from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::neg.out"


@pytest.mark.parametrize("args", calls())
def test_neg_matches_portable_to_the_bit(
    optimized: KernelRunner, kernel: KernelRunner, args: list
) -> None:
    # A sign flip: the same bits as portable's, -0 and NaN included.
    (got,) = assert_matches(optimized, kernel, OP, args)
    assert got.tobytes() == kernel.run(OP, args)[0].tobytes()


def test_neg_wrong_out_shape(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_both_fail(optimized, kernel, OP, [In(x), Out(np.float32, (3, 2))], "")
