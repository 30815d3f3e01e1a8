from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import In, KernelFailed, KernelRunner, Out

OP = "aten::min.dim_min"
ALL = [
    np.uint8,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.float16,
    np.float32,
    np.float64,
    np.bool_,
]


@pytest.mark.parametrize("dtype", ALL)
def test_min_dim_values_and_first_indices(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) * 7 % 5).astype(dtype)
    values, indices = kernel.run(OP, [In(x), 1, False, Out(dtype, (2, 4)), Out(np.int64, (2, 4))])
    np.testing.assert_array_equal(values, np.min(x, axis=1))
    np.testing.assert_array_equal(indices, np.argmin(x, axis=1))
    values, indices = kernel.run(
        OP, [In(x), -1, True, Out(dtype, (2, 3, 1)), Out(np.int64, (2, 3, 1))]
    )
    np.testing.assert_array_equal(values, np.min(x, axis=-1, keepdims=True))
    np.testing.assert_array_equal(indices, np.argmin(x, axis=-1, keepdims=True))


def test_min_dim_nan_layouts_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array([[1.0, np.nan, np.nan], [-np.inf, np.inf, 0.0]], np.float32)
    values, indices = kernel.run(OP, [In(x), 1, False, Out(np.float32, (2,)), Out(np.int64, (2,))])
    np.testing.assert_array_equal(values, np.min(x, axis=1))
    np.testing.assert_array_equal(indices, np.argmin(x, axis=1))
    y = np.random.default_rng(21).standard_normal((3, 4)).astype(np.float64)
    values, indices = kernel.run(
        OP,
        [
            In(y, dim_order=(1, 0)),
            0,
            False,
            Out(np.float64, (4,)),
            Out(np.int64, (4,), dim_order=(0,)),
        ],
    )
    np.testing.assert_array_equal(indices, np.argmin(y, axis=0))
    values, indices = kernel.run(
        OP, [In(np.array(2.0, np.float32)), 0, False, Out(np.float32, ()), Out(np.int64, ())]
    )
    assert values == 2.0 and indices == 0
    e = np.zeros((0, 3), np.int32)
    values, indices = kernel.run(OP, [In(e), 1, False, Out(np.int32, (0,)), Out(np.int64, (0,))])
    assert values.shape == (0,) and indices.shape == (0,)


def test_min_dim_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for args in (
        [In(np.zeros((2, 0), np.float32)), 1, False, Out(np.float32, (2,)), Out(np.int64, (2,))],
        [In(x), 1, False, Out(np.float32, (2,)), Out(np.int32, (2,))],
        [In(x), 2, False, Out(np.float32, (2,)), Out(np.int64, (2,))],
        [In(x), 1, False, Out(np.float64, (2,)), Out(np.int64, (2,))],
    ):
        with pytest.raises(KernelFailed) as caught:
            kernel.run(OP, args)
        assert OP in str(caught.value) and "\n" not in str(caught.value)


def test_min_bfloat16(kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.array([[1.5, -2.0, 0.3, 7.0], [0.1, np.nan, 7.0, 9.0]]))
    outs = [Out(np.float32, (2, 1)), Out(np.int64, (2, 1))]
    values, indices = run_bfloat16(kernel, OP, [In(x), 1, True, *outs])
    np.testing.assert_array_equal(values, [[-2.0], [np.nan]])
    np.testing.assert_array_equal(indices, [[1], [1]])
