from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random
from tests.kernels.optimized.reduce_cases import calls

OP = "aten::mean.out"


@pytest.mark.parametrize("args", calls())
def test_mean_matches_portable(optimized: KernelRunner, kernel: KernelRunner, args: list) -> None:
    assert_matches(optimized, kernel, OP, args)


def test_mean_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = random((2, 3), 3)
    args = [In(x), IntList((2,)), False, None, Out(np.float32, (2,))]
    assert_both_fail(optimized, kernel, OP, args, "")
    args = [In(x), IntList((1, 1)), False, None, Out(np.float32, (2,))]
    assert_both_fail(optimized, kernel, OP, args, "")
    args = [In(x), IntList((1,)), False, None, Out(np.float32, (3,))]
    assert_both_fail(optimized, kernel, OP, args, "")
