from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::masked_scatter.out"


def reference(x: np.ndarray, mask: np.ndarray, source: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    out = np.broadcast_to(x, shape).copy()
    where = np.broadcast_to(mask, shape)
    out[where] = source.reshape(-1)[: int(where.sum())]
    return out


@pytest.mark.parametrize("dtype", ALL)
def test_masked_scatter_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((3, 4), dtype)
    mask = np.arange(12).reshape(3, 4) % 3 == 1
    source = (np.arange(12) % 2 + 1).astype(dtype)
    (out,) = kernel.run(OP, [In(x), In(mask), In(source), Out(dtype, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, mask, source))


def test_masked_scatter_broadcast_and_layouts(kernel: KernelRunner) -> None:
    x = np.arange(3, dtype=np.float32).reshape(3, 1)
    mask = np.array([True, False, True, True])
    source = np.arange(20, dtype=np.float32).reshape(4, 5) + 100
    (out,) = kernel.run(OP, [In(x), In(mask), In(source, (1, 0)), Out(np.float32, (3, 4))])
    np.testing.assert_array_equal(out, reference(x, mask, source))


def test_masked_scatter_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    mask = np.ones((2, 3), np.bool_)
    assert_fails(
        kernel,
        OP,
        [In(x), In(mask), In(np.ones(5, np.float32)), Out(np.float32, (2, 3))],
        "fewer elements",
    )
    assert_fails(
        kernel,
        OP,
        [In(x), In(mask), In(np.ones(6, np.int32)), Out(np.float32, (2, 3))],
        "self's dtype",
    )
    assert_fails(
        kernel, OP, [In(x), In(mask.astype(np.int8)), In(x), Out(np.float32, (2, 3))], "bool"
    )
    assert_fails(
        kernel, OP, [In(x), In(mask[:, :2]), In(x), Out(np.float32, (2, 3))], "cannot be broadcast"
    )
