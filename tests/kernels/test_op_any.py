from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails


@pytest.mark.parametrize("dtype", ALL)
def test_any_overloads(kernel: KernelRunner, dtype: type) -> None:
    x = np.zeros((2, 3, 4), dtype)
    x[0, 1, 2] = 1
    x[1, 2, 0] = 1
    out_dtype = np.uint8 if dtype == np.uint8 else np.bool_
    (out,) = kernel.run("aten::any.all_out", [In(x), Out(out_dtype, ())])
    assert out.dtype == out_dtype and out == 1
    (out,) = kernel.run("aten::any.out", [In(x), 1, False, Out(np.bool_, (2, 4))])
    np.testing.assert_array_equal(out, x.any(axis=1))
    (out,) = kernel.run(
        "aten::any.dims_out", [In(x), IntList((0, 2)), True, Out(np.bool_, (1, 3, 1))]
    )
    np.testing.assert_array_equal(out, x.any(axis=(0, 2), keepdims=True))
    (out,) = kernel.run("aten::any.dims_out", [In(x), None, False, Out(np.bool_, ())])
    assert out


def test_any_nan_is_true_empty_is_false(kernel: KernelRunner) -> None:
    x = np.array([[np.nan, 0.0], [0.0, -0.0]], np.float32)
    (out,) = kernel.run("aten::any.out", [In(x), -1, False, Out(np.bool_, (2,))])
    np.testing.assert_array_equal(out, [True, False])
    (out,) = kernel.run("aten::any.all_out", [In(np.zeros((0, 2), np.int32)), Out(np.bool_, ())])
    assert not out
    (out,) = kernel.run("aten::any.out", [In(np.array(2, np.int64)), 0, False, Out(np.bool_, ())])
    assert out


def test_any_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for op, args in (
        ("aten::any.all_out", [In(x), Out(np.float32, ())]),
        ("aten::any.all_out", [In(x), Out(np.uint8, ())]),
        ("aten::any.out", [In(x), 2, False, Out(np.bool_, (2,))]),
        ("aten::any.dims_out", [In(x), IntList((1,)), False, Out(np.bool_, (3,))]),
    ):
        assert_fails(kernel, op, args)
