"""empty.out and dim_order_ops::_empty_dim_order.out: shape only, the values are unset."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, KernelRunner, Out, assert_fails

EMPTY = "aten::empty.out"
EMPTY_DIM_ORDER = "dim_order_ops::_empty_dim_order.out"


@pytest.mark.parametrize("dtype", ALL)
def test_empty_shapes_out(kernel: KernelRunner, dtype: type) -> None:
    (out,) = kernel.run(EMPTY, [IntList((2, 3)), None, Out(dtype, (2, 3))])
    assert out.shape == (2, 3) and out.dtype == dtype
    (out,) = kernel.run(EMPTY_DIM_ORDER, [IntList((2, 3)), None, Out(dtype, (2, 3))])
    assert out.shape == (2, 3) and out.dtype == dtype


def test_empty_memory_format_dynamic_and_zero_size(kernel: KernelRunner) -> None:
    # memory_format is ignored (0 is torch.contiguous_format).
    (out,) = kernel.run(EMPTY, [IntList((3,)), 0, Out(np.float32, (3,))])
    assert out.shape == (3,)
    (out,) = kernel.run(EMPTY, [IntList((2, 1)), None, Out(np.int64, (4, 4), dynamic=True)])
    assert out.shape == (2, 1)
    (out,) = kernel.run(EMPTY_DIM_ORDER, [IntList((0, 5)), None, Out(np.float32, (0, 5))])
    assert out.shape == (0, 5)


def test_empty_dim_order_channels_last(kernel: KernelRunner) -> None:
    order = (0, 2, 3, 1)
    args = [IntList((1, 2, 3, 4)), IntList(order), Out(np.float32, (1, 2, 3, 4), order)]
    (out,) = kernel.run(EMPTY_DIM_ORDER, args)
    assert out.shape == (1, 2, 3, 4)


def test_empty_errors_are_one_line(kernel: KernelRunner) -> None:
    assert_fails(kernel, EMPTY, [IntList((2, 2)), None, Out(np.float32, (3,))])
    assert_fails(kernel, EMPTY, [IntList((-2,)), None, Out(np.float32, (2,))], "non-negative")
    order = (0, 2, 3, 1)
    contiguous = Out(np.float32, (1, 2, 3, 4))
    size = IntList((1, 2, 3, 4))
    assert_fails(kernel, EMPTY_DIM_ORDER, [size, IntList(order), contiguous], "not dim_order")
    channels_last = Out(np.float32, (1, 2, 3, 4), order)
    assert_fails(kernel, EMPTY_DIM_ORDER, [size, None, channels_last], "must be contiguous")
    assert_fails(kernel, EMPTY_DIM_ORDER, [size, IntList((0, 1)), contiguous], "one entry per dim")
