"""Tensor lists as kernel arguments (the kernel key takes the first element's dtype)."""

from __future__ import annotations

import numpy as np

from tests.kernels.harness import InList, KernelRunner, Out


def test_tensor_list_argument(kernel: KernelRunner) -> None:
    a = np.arange(4, dtype=np.int64).reshape(2, 2)
    (out,) = kernel.run("aten::cat.out", [InList((a, a + 10, a + 20)), 0, Out(np.int64, (6, 2))])
    np.testing.assert_array_equal(out, np.concatenate([a, a + 10, a + 20]))
