from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import In, KernelFailed, KernelRunner, Out

OP = "aten::argmax.out"
REAL = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", REAL)
def test_argmax_dim_and_flattened(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) * 7 % 5).astype(dtype)
    (out,) = kernel.run(OP, [In(x), 1, False, Out(np.int64, (2, 4))])
    np.testing.assert_array_equal(out, np.argmax(x, axis=1))
    (out,) = kernel.run(OP, [In(x), None, False, Out(np.int64, ())])
    assert out == np.argmax(x)
    (out,) = kernel.run(OP, [In(x), None, True, Out(np.int64, (1, 1, 1))])
    assert out.shape == (1, 1, 1) and out[0, 0, 0] == np.argmax(x)


def test_argmax_nan_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array([[1.0, np.nan, np.nan], [-np.inf, np.inf, 0.0]], np.float32)
    (out,) = kernel.run(OP, [In(x), -1, False, Out(np.int64, (2,))])
    np.testing.assert_array_equal(out, np.argmax(x, axis=1))
    (out,) = kernel.run(OP, [In(np.array(3, np.int8)), None, False, Out(np.int64, ())])
    assert out == 0
    (out,) = kernel.run(OP, [In(np.zeros((0, 3), np.float32)), 1, False, Out(np.int64, (0,))])
    assert out.shape == (0,)


def test_argmax_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for args in (
        [In(np.zeros((2, 0), np.float32)), 1, False, Out(np.int64, (2,))],
        [In(x), 1, False, Out(np.int32, (2,))],
        [In(x), 3, False, Out(np.int64, (2,))],
        [In(x.astype(np.bool_)), 1, False, Out(np.int64, (2,))],
    ):
        with pytest.raises(KernelFailed) as caught:
            kernel.run(OP, args)
        assert OP in str(caught.value) and "\n" not in str(caught.value)


def test_argmax_bfloat16(kernel: KernelRunner) -> None:
    (x,) = bfloat16_inputs(np.array([[1.5, -2.0, 0.3, 7.0], [0.1, np.nan, 7.0, 9.0]]))
    (got,) = run_bfloat16(kernel, OP, [In(x), 1, False, Out(np.int64, (2,))])
    np.testing.assert_array_equal(got, [3, 1])
    (got,) = run_bfloat16(kernel, OP, [In(x[:1]), None, False, Out(np.int64, ())])
    np.testing.assert_array_equal(got, 3)
