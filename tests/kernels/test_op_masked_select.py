from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::masked_select.out"


def reference(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


@pytest.mark.parametrize("dtype", ALL)
def test_masked_select_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    mask = np.arange(12).reshape(3, 4) % 3 == 1
    (out,) = kernel.run(OP, [In(x), In(mask), Out(dtype, (12,), dynamic=True)])
    np.testing.assert_array_equal(out, reference(x, mask))


def test_masked_select_broadcast_layouts_and_empty(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.float32).reshape(3, 2, 1)
    mask = np.array([[True, False, True], [False, False, True]])
    (out,) = kernel.run(OP, [In(x, (2, 0, 1)), In(mask), Out(np.float32, (18,), dynamic=True)])
    np.testing.assert_array_equal(out, reference(x, mask))
    (out,) = kernel.run(
        OP, [In(x), In(np.zeros((1,), np.bool_)), Out(np.float32, (6,), dynamic=True)]
    )
    assert out.shape == (0,)


def test_masked_select_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    big = Out(np.float32, (6,), dynamic=True)
    assert_fails(
        kernel, OP, [In(x), In(np.ones((2, 3), np.uint8)), big], "mask must be a bool tensor"
    )
    assert_fails(kernel, OP, [In(x), In(np.ones((2, 2), np.bool_)), big], "cannot be broadcast")
    assert_fails(
        kernel,
        OP,
        [In(x), In(np.ones((2, 3), np.bool_)), Out(np.float64, (6,), dynamic=True)],
        "dtype",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), In(np.ones((2, 3), np.bool_)), Out(np.float32, (5,), dynamic=True)],
        "wrong shape",
    )
