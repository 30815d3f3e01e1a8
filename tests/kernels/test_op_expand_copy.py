from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::expand_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_expand_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(3).reshape(3, 1) % 2).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((2, 3, 4)), False, Out(dtype, (2, 3, 4))])
    np.testing.assert_array_equal(out, np.broadcast_to(x, (2, 3, 4)))


def test_expand_minus_one_keeps_and_0_dim(kernel: KernelRunner) -> None:
    x = np.arange(3, dtype=np.float32).reshape(1, 3)
    (out,) = kernel.run(OP, [In(x), IntList((4, -1)), False, Out(np.float32, (4, 3))])
    np.testing.assert_array_equal(out, np.broadcast_to(x, (4, 3)))
    (out,) = kernel.run(
        OP, [In(np.array(7, np.int32)), IntList((2, 2)), False, Out(np.int32, (2, 2))]
    )
    np.testing.assert_array_equal(out, np.full((2, 2), 7, np.int32))
    (out,) = kernel.run(OP, [In(x), IntList((0, 3)), False, Out(np.float32, (0, 3))])
    assert out.shape == (0, 3)


def test_expand_non_singleton_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel,
        OP,
        [In(np.ones((2, 3), np.float32)), IntList((4, 3)), False, Out(np.float32, (4, 3))],
    )
