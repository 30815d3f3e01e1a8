"""detach_copy, lift_fresh_copy and et_copy's _h2d_copy / _d2h_copy: on this runtime each is a
copy of self into out (no autograd, no device but the CPU), tested together."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OPS = [
    "aten::detach_copy.out",
    "aten::lift_fresh_copy.out",
    "et_copy::_h2d_copy.out",
    "et_copy::_d2h_copy.out",
]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ALL)
def test_copy_every_dtype(kernel: KernelRunner, op: str, dtype: type) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    (out,) = kernel.run(op, [In(x), Out(dtype, x.shape)])
    np.testing.assert_array_equal(out, x)


@pytest.mark.parametrize("op", OPS)
def test_copy_layouts_empty_and_errors(kernel: KernelRunner, op: str) -> None:
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    (out,) = kernel.run(op, [In(x, (0, 2, 3, 1)), Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, x)
    (out,) = kernel.run(op, [In(np.zeros((0, 3), np.int32)), Out(np.int32, (0, 3))])
    assert out.shape == (0, 3)
    assert_fails(kernel, op, [In(x), Out(np.float64, x.shape)], "out must have self's dtype")
    assert_fails(kernel, op, [In(x), Out(np.float32, (2, 3))], "out has the wrong shape")
