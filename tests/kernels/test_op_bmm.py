from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import REAL, In, KernelRunner, Out, assert_fails

OP = "aten::bmm.out"


@pytest.mark.parametrize("dtype", REAL)
def test_bmm_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    a = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    b = (np.arange(16).reshape(2, 4, 2) % 3).astype(dtype)
    (out,) = kernel.run(OP, [In(a), In(b), Out(dtype, (2, 3, 2))])
    np.testing.assert_array_equal(out, (a.astype(np.int64) @ b.astype(np.int64)).astype(dtype))


def test_bmm_floats_with_permuted_layout(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4, 5)).astype(np.float64)
    b = rng.standard_normal((3, 5, 6)).astype(np.float64)
    (out,) = kernel.run(OP, [In(a), In(b, dim_order=(0, 2, 1)), Out(np.float64, (3, 4, 6))])
    np.testing.assert_allclose(out, a @ b, rtol=1e-12)


def test_bmm_empty_batch(kernel: KernelRunner) -> None:
    a = np.zeros((0, 2, 3), dtype=np.float32)
    (out,) = kernel.run(
        OP, [In(a), In(np.zeros((0, 3, 4), np.float32)), Out(np.float32, (0, 2, 4))]
    )
    assert out.shape == (0, 2, 4)


def test_bmm_errors(kernel: KernelRunner) -> None:
    a = np.ones((2, 2, 3), dtype=np.float32)
    for args in (
        [In(a), In(a), Out(np.float32, (2, 2, 3))],
        [In(a), In(np.ones((3, 3, 2), np.float32)), Out(np.float32, (2, 2, 2))],
        [In(a[0]), In(a[0].T.copy()), Out(np.float32, (2, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_bmm_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(76)
    a, b = bfloat16_inputs(rng.standard_normal((2, 3, 8)), rng.standard_normal((2, 8, 2)))
    (got,) = run_bfloat16(kernel, OP, [In(a), In(b), Out(np.float32, (2, 3, 2))])
    assert_bfloat16_close(got, a @ b, atol=5e-2)
