from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import ALL, FLOATING, In, Out, assert_fails, sample
from tests.kernels.harness import KernelRunner

OP = "aten::atan2.out"


@pytest.mark.parametrize("dtype", ALL)
def test_atan2_computes_in_float(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (2, 3), 1), sample(dtype, (3,), 2)
    f = dtype if dtype in FLOATING else np.float32
    out = kernel.run(OP, [In(x), In(y), Out(f, (2, 3))])[0]
    assert out.dtype == f
    np.testing.assert_allclose(
        out, np.arctan2(x.astype(f), y.astype(f)), rtol=1e-3 if f is np.float16 else 1e-6
    )


def test_atan2_edges_zero_dim_empty(kernel: KernelRunner) -> None:
    x = np.array([0.0, -0.0, 1.0, np.inf, np.nan, -1.0], dtype=np.float64)
    y = np.array([-0.0, -1.0, 0.0, np.inf, 1.0, -np.inf], dtype=np.float64)
    out = kernel.run(OP, [In(x), In(y), Out(np.float64, x.shape)])[0]
    np.testing.assert_array_equal(out, np.arctan2(x, y))
    assert np.array_equal(np.signbit(out), np.signbit(np.arctan2(x, y)))
    z = np.array(1, dtype=np.int32)
    np.testing.assert_allclose(kernel.run(OP, [In(z), In(z), Out(np.float64, ())])[0], np.pi / 4)
    e = np.zeros((0,), np.float32)
    assert kernel.run(OP, [In(e), In(e), Out(np.float32, (0,))])[0].shape == (0,)


def test_atan2_errors(kernel: KernelRunner) -> None:
    i = np.array([1], np.int32)
    assert_fails(kernel, OP, [In(i), In(i), Out(np.int32, (1,))], "cast")


def test_atan2_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [0.0, -1.0, np.nan]]), np.array([0.25, -3.0, 1.0])
    )
    out = Out(np.float32, (2, 3))
    (got,) = run_bfloat16(kernel, "aten::atan2.out", [In(x), In(y), out])
    assert_bfloat16_close(got, np.arctan2(x, y))
