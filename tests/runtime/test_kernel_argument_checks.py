"""Kernels called with an argument of the wrong kind fail with one line and do nothing
undefined first: on the sanitized all-operators runner, a reference bound through the null
tensor pointer of a failed argument is a UBSan report (issue 13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.fuzz.sanitized import sanitized_runner
from tests.kernels.harness import In, KernelRunner, Out, assert_fails

DIM_ORDER_OPS = ["dim_order_ops::_to_dim_order_copy.out", "dim_order_ops::_clone_dim_order.out"]


@pytest.fixture(scope="module")
def runner() -> Path:
    return sanitized_runner()


@pytest.mark.parametrize("op", DIM_ORDER_OPS)
def test_self_that_is_not_a_tensor(runner: Path, tmp_path: Path, op: str) -> None:
    kernel = KernelRunner(runner, tmp_path)
    assert_fails(
        kernel,
        op,
        [3, False, None, Out(np.float32, (2,))],
        "argument 'self' expects Tensor, got int",
    )


@pytest.mark.parametrize("op", DIM_ORDER_OPS)
def test_out_that_is_not_a_tensor(runner: Path, tmp_path: Path, op: str) -> None:
    kernel = KernelRunner(runner, tmp_path)
    self = In(np.ones(2, np.float32))
    # out, then the return value (the out again, as written by the exporter): both a double.
    assert_fails(
        kernel, op, [self, False, None, 1.5, 1.5], "argument 'out' expects Tensor, got float"
    )
