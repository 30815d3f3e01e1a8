from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::flip.out"


@pytest.mark.parametrize("dtype", ALL)
def test_flip_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((0, -1)), Out(dtype, (2, 3, 4))])
    np.testing.assert_array_equal(out, np.flip(x, (0, 2)))


def test_flip_nothing_0_dim_empty(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (out,) = kernel.run(OP, [In(x), IntList(()), Out(np.float32, (2, 3))])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(OP, [In(np.array(3, np.int8)), IntList((0,)), Out(np.int8, ())])
    assert out == 3
    (out,) = kernel.run(
        OP, [In(np.zeros((0, 2), np.int32)), IntList((0, 1)), Out(np.int32, (0, 2))]
    )
    assert out.shape == (0, 2)


def test_flip_repeated_dim_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel, OP, [In(np.ones((2, 3), np.float32)), IntList((0, 0)), Out(np.float32, (2, 3))]
    )
