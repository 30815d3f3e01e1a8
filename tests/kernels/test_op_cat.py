from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, InList, KernelRunner, Out, assert_fails

OP = "aten::cat.out"


@pytest.mark.parametrize("dtype", ALL)
def test_cat_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    a = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    b = (np.arange(4).reshape(2, 2) % 3).astype(dtype)
    (out,) = kernel.run(OP, [InList((a, b)), 1, Out(dtype, (2, 5))])
    np.testing.assert_array_equal(out, np.concatenate([a, b], 1))


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_cat_dims(kernel: KernelRunner, dim: int) -> None:
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    expected = np.concatenate([a, a * 2, a * 3], dim)
    (out,) = kernel.run(OP, [InList((a, a * 2, a * 3)), dim, Out(np.float32, expected.shape)])
    np.testing.assert_array_equal(out, expected)


def test_cat_promotes_and_skips_legacy_empty(kernel: KernelRunner) -> None:
    a = np.array([1, 2], np.int32)
    b = np.array([0.5], np.float32)
    e = np.zeros((0,), np.int64)
    (out,) = kernel.run(OP, [InList((a, e, b)), 0, Out(np.float64, (3,))])
    np.testing.assert_array_equal(out, [1.0, 2.0, 0.5])
    m = np.ones((2, 2), np.int8)
    (out,) = kernel.run(OP, [InList((e, m)), 0, Out(np.int16, (2, 2))])
    np.testing.assert_array_equal(out, m)
    (out,) = kernel.run(OP, [InList((np.zeros((0, 2), np.int8), m)), 0, Out(np.int8, (2, 2))])
    np.testing.assert_array_equal(out, m)


def test_cat_float_into_int_out_fails(kernel: KernelRunner) -> None:
    assert_fails(kernel, OP, [InList((np.ones(2, np.float32),)), 0, Out(np.int32, (2,))])


def test_cat_shape_mismatch_fails(kernel: KernelRunner) -> None:
    assert_fails(
        kernel,
        OP,
        [
            InList((np.ones((2, 2), np.float32), np.ones((2, 3), np.float32))),
            0,
            Out(np.float32, (4, 2)),
        ],
    )
