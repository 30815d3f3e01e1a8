from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::var_mean.correction_out"


@pytest.mark.parametrize("dtype", FLOATING)
def test_var_mean_matches_reference(kernel: KernelRunner, dtype: type) -> None:
    x = np.random.default_rng(50).standard_normal((3, 4, 5)).astype(dtype)
    x64 = x.astype(np.float64)
    tol = 1e-2 if dtype == np.float16 else 1e-5
    var, mean = kernel.run(
        OP, [In(x), IntList((1,)), None, False, Out(dtype, (3, 5)), Out(dtype, (3, 5))]
    )
    np.testing.assert_allclose(var.astype(np.float64), x64.var(axis=1, ddof=1), rtol=tol)
    np.testing.assert_allclose(mean.astype(np.float64), x64.mean(axis=1), rtol=tol, atol=tol)
    outs = [Out(dtype, (1, 4, 1)), Out(dtype, (1, 4, 1))]
    var, mean = kernel.run(OP, [In(x), IntList((0, -1)), 0, True, *outs])
    np.testing.assert_allclose(
        var.astype(np.float64), x64.var(axis=(0, 2), keepdims=True), rtol=tol
    )
    np.testing.assert_allclose(
        mean.astype(np.float64), x64.mean(axis=(0, 2), keepdims=True), rtol=tol, atol=tol
    )
    var, mean = kernel.run(OP, [In(x), None, 2.5, False, Out(dtype, ()), Out(dtype, ())])
    np.testing.assert_allclose(float(var), x64.var() * 60 / 57.5, rtol=tol)
    np.testing.assert_allclose(float(mean), x64.mean(), rtol=tol, atol=tol)


def test_var_mean_strided_input_and_wider_outs(kernel: KernelRunner) -> None:
    x = np.random.default_rng(51).standard_normal((2, 3, 4)).astype(np.float32)
    outs = [Out(np.float64, (2, 4)), Out(np.float64, (2, 4))]
    var, mean = kernel.run(OP, [In(x, dim_order=(2, 0, 1)), IntList((1,)), None, False, *outs])
    assert var.dtype == mean.dtype == np.float64
    np.testing.assert_allclose(var, x.astype(np.float64).var(axis=1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(mean, x.astype(np.float64).mean(axis=1), rtol=1e-6, atol=1e-7)


def test_var_mean_edge_cases(kernel: KernelRunner) -> None:
    one = np.array([5.0], np.float32)
    var, mean = kernel.run(
        OP, [In(one), None, None, False, Out(np.float32, ()), Out(np.float32, ())]
    )
    assert np.isnan(var) and mean == 5.0  # one sample, correction 1: 0 / 0
    empty = np.zeros((0, 2), np.float32)
    outs = [Out(np.float32, (0,)), Out(np.float32, (0,))]
    var, mean = kernel.run(OP, [In(empty), IntList((1,)), None, False, *outs])
    assert var.shape == mean.shape == (0,)


def test_var_mean_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    f32 = np.float32
    for args, text in (
        ([In(x), IntList((2,)), None, False, Out(f32, (2,)), Out(f32, (2,))], "out of range"),
        ([In(x), IntList((1,)), None, False, Out(f32, (3,)), Out(f32, (2,))], "wrong shape"),
        ([In(x), IntList((1,)), None, False, Out(f32, (2,)), Out(f32, (3,))], "wrong shape"),
        ([In(x), IntList((1,)), None, False, Out(f32, (2,)), Out(np.float64, (2,))], "same dtype"),
        (
            [In(x.astype(np.int64)), None, None, False, Out(np.int64, ()), Out(np.int64, ())],
            "Long",
        ),
        (
            [In(x), IntList((0,)), None, False, Out(f32, (3, 1)), Out(f32, (3, 1), (1, 0))],
            "wrong shape",
        ),
        (
            [In(x), IntList((0,)), None, True, Out(f32, (1, 3)), Out(f32, (1, 3), (1, 0))],
            "dim order",
        ),
    ):
        assert_fails(kernel, OP, args, text)
