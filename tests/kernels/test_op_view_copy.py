from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::view_copy.out"


@pytest.mark.parametrize("dtype", ALL)
def test_view_reshapes_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    (out,) = kernel.run(OP, [In(x), IntList((4, -1)), Out(dtype, (4, 6))])
    np.testing.assert_array_equal(out, x.reshape(4, 6))


def test_view_of_channels_last_input_is_logical(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(
        OP, [In(x, dim_order=(0, 2, 3, 1)), IntList((6, 4)), Out(np.float32, (6, 4))]
    )
    np.testing.assert_array_equal(out, x.reshape(6, 4))


def test_view_to_and_from_0_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array([5.0], dtype=np.float32)
    (out,) = kernel.run(OP, [In(x), IntList(()), Out(np.float32, ())])
    assert out.shape == () and out == 5.0
    e = np.zeros((0, 3), dtype=np.int32)
    (out,) = kernel.run(OP, [In(e), IntList((3, 0)), Out(np.int32, (3, 0))])
    assert out.shape == (3, 0)


def test_view_into_dynamic_out(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    (out,) = kernel.run(OP, [In(x), IntList((-1, 2)), Out(np.int64, (8, 2), dynamic=True)])
    np.testing.assert_array_equal(out, x.reshape(3, 2))


def test_view_wrong_numel_fails(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_fails(kernel, OP, [In(x), IntList((4, 2)), Out(np.float32, (4, 2))])
