"""Non-default dim orders: npy data is logical row-major, converted at set-input and output."""

from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, KernelRunner, Out

CHANNELS_LAST = (0, 2, 3, 1)


def test_channels_last_input_and_output(kernel: KernelRunner) -> None:
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    y = np.full((2, 3, 4, 5), 0.5, np.float32)
    (out,) = kernel.run(
        "aten::add.out",
        [
            In(x, dim_order=CHANNELS_LAST),
            In(y),
            1,
            Out(np.float32, x.shape, dim_order=CHANNELS_LAST),
        ],
    )
    np.testing.assert_array_equal(out, x + y)


def test_channels_last_to_contiguous_copy(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.int32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(
        "dim_order_ops::_clone_dim_order.out",
        [In(x, dim_order=CHANNELS_LAST), False, None, Out(np.int32, x.shape)],
    )
    np.testing.assert_array_equal(out, x)
