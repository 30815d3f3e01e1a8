"""The optimized _to_dim_order_copy: its Float copies are _clone_dim_order's (parametrized
over both in test_op__clone_dim_order.py); here what it adds, every other dtype."""

from __future__ import annotations

import numpy as np

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_matches

OP = "dim_order_ops::_to_dim_order_copy.out"
LAST = (0, 2, 3, 1)


def test_to_dim_order_copy_other_dtypes_and_conversions(
    optimized: KernelRunner, kernel: KernelRunner
) -> None:
    # The entry declares every dtype (an operator selected by name gets this kernel alone):
    # Long and Bool copies, conversions, in either dim order.
    x = np.arange(120, dtype=np.int64).reshape(2, 3, 4, 5) - 60
    for order in (None, LAST):
        for dtype in (np.int64, np.float32, np.bool_):
            args = [In(x, order), False, IntList(order or (0, 1, 2, 3)), Out(dtype, x.shape, order)]
            (out,) = assert_matches(optimized, kernel, OP, args)
            np.testing.assert_array_equal(out, x.astype(dtype))
