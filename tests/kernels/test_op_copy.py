from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_copy_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((3, 4), dtype)
    src = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    (out,) = kernel.run(OP, [In(x), In(src), False, Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, src)


def test_copy_broadcasts_and_converts_src(kernel: KernelRunner) -> None:
    x = np.zeros((2, 3, 4), np.float32)
    src = np.array([1, -2, 3, 250], np.int64)
    (out,) = kernel.run(OP, [In(x), In(src), False, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, np.broadcast_to(src.astype(np.float32), x.shape))
    (out,) = kernel.run(
        OP, [In(np.zeros((2, 2), np.uint8)), In(src[:2]), False, Out(np.uint8, (2, 2))]
    )
    np.testing.assert_array_equal(out, np.broadcast_to(src[:2].astype(np.uint8), (2, 2)))


def test_copy_errors(kernel: KernelRunner) -> None:
    x = np.zeros((2, 3), np.float32)
    assert_fails(kernel, OP, [In(x), In(x), True, Out(np.float32, (2, 3))], "non_blocking")
    assert_fails(
        kernel,
        OP,
        [In(x), In(np.ones((2,), np.float32)), False, Out(np.float32, (2, 3))],
        "broadcast",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), In(np.ones((3, 2, 3), np.float32)), False, Out(np.float32, (2, 3))],
        "broadcast",
    )
    assert_fails(kernel, OP, [In(x), In(x), False, Out(np.int32, (2, 3))], "self's dtype")
