from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelFailed, KernelRunner, Out

REAL = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", REAL)
def test_add_broadcasts_like_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(6).reshape(2, 3) % 5).astype(dtype)
    y = np.array([1, 2, 3], dtype=dtype)
    (out,) = kernel.run("aten::add.out", [In(x), In(y), 1, Out(dtype, (2, 3))])
    np.testing.assert_array_equal(out, x + y)


def test_add_alpha_scales_other(kernel: KernelRunner) -> None:
    x = np.array([1.0, 2.0], dtype=np.float32)
    (out,) = kernel.run("aten::add.out", [In(x), In(x), 2.5, Out(np.float32, (2,))])
    np.testing.assert_allclose(out, x + 2.5 * x)


def test_wrong_out_shape_is_one_line(kernel: KernelRunner) -> None:
    x = np.ones((2, 2), dtype=np.float32)
    with pytest.raises(KernelFailed) as caught:
        kernel.run("aten::add.out", [In(x), In(x), 1, Out(np.float32, (3,))])
    assert "aten::add.out" in str(caught.value) and "\n" not in str(caught.value)
