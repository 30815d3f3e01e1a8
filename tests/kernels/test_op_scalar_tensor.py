from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, KernelRunner, Out, assert_fails

OP = "aten::scalar_tensor.out"


@pytest.mark.parametrize("dtype", ALL)
def test_scalar_tensor_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    (out,) = kernel.run(OP, [3, Out(dtype, ())])
    assert out.shape == () and out.dtype == np.dtype(dtype)
    assert out == np.asarray(3).astype(dtype)


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        (2.5, np.float32),
        (-7, np.int64),
        (0.5, np.bool_),
        (float("nan"), np.float16),
        (3.9, np.int32),
    ],
)
def test_scalar_tensor_converts_like_torch(kernel: KernelRunner, value: float, dtype: type) -> None:
    (out,) = kernel.run(OP, [value, Out(dtype, ())])
    expected = np.asarray(int(value) if np.dtype(dtype).kind in "iu" else value).astype(dtype)
    np.testing.assert_array_equal(out, expected)


def test_scalar_tensor_out_not_0_dim_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [1.0, Out(np.float32, (2,))])
