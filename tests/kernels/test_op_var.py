from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails


@pytest.mark.parametrize("dtype", FLOATING)
def test_var_correction(kernel: KernelRunner, dtype: type) -> None:
    x = np.random.default_rng(30).standard_normal((3, 4, 5)).astype(dtype)
    x64 = x.astype(np.float64)
    tol = 1e-2 if dtype == np.float16 else 1e-5
    op = "aten::var.correction_out"
    (out,) = kernel.run(op, [In(x), IntList((1,)), None, False, Out(dtype, (3, 5))])
    np.testing.assert_allclose(out.astype(np.float64), x64.var(axis=1, ddof=1), rtol=tol)
    (out,) = kernel.run(op, [In(x), IntList((0, 2)), 0, True, Out(dtype, (1, 4, 1))])
    np.testing.assert_allclose(
        out.astype(np.float64), x64.var(axis=(0, 2), keepdims=True), rtol=tol
    )
    (out,) = kernel.run(op, [In(x), None, 2.5, False, Out(dtype, ())])
    np.testing.assert_allclose(float(out), x64.var() * 60 / 57.5, rtol=tol)


@pytest.mark.parametrize("dtype", FLOATING)
def test_var_unbiased(kernel: KernelRunner, dtype: type) -> None:
    x = np.random.default_rng(31).standard_normal((4, 6)).astype(dtype)
    x64 = x.astype(np.float64)
    tol = 1e-2 if dtype == np.float16 else 1e-5
    for unbiased in (True, False):
        (out,) = kernel.run(
            "aten::var.out", [In(x), IntList((-1,)), unbiased, False, Out(dtype, (4,))]
        )
        np.testing.assert_allclose(
            out.astype(np.float64), x64.var(axis=-1, ddof=int(unbiased)), rtol=tol
        )


def test_var_edge_cases(kernel: KernelRunner) -> None:
    op = "aten::var.correction_out"
    x = np.array([[1.0, np.nan], [np.inf, 1.0], [2.0, 2.0]], np.float32)
    (out,) = kernel.run(op, [In(x), IntList((1,)), None, False, Out(np.float32, (3,))])
    assert np.isnan(out[0]) and np.isnan(out[1]) and out[2] == 0.0
    (out,) = kernel.run(
        op, [In(np.array([5.0], np.float32)), None, None, False, Out(np.float32, ())]
    )
    assert np.isnan(out)  # one sample, correction 1: 0 / 0
    (out,) = kernel.run(
        op, [In(np.zeros((0, 2), np.float32)), IntList((1,)), None, False, Out(np.float32, (0,))]
    )
    assert out.shape == (0,)


def test_var_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    for op, args in (
        (
            "aten::var.correction_out",
            [In(x.astype(np.int32)), None, None, False, Out(np.int32, ())],
        ),
        ("aten::var.correction_out", [In(x), IntList((2,)), None, False, Out(np.float32, (2,))]),
        ("aten::var.out", [In(x), IntList((1,)), True, False, Out(np.float64, (2,))]),
    ):
        assert_fails(kernel, op, args)


def test_var_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(73)
    (x,) = bfloat16_inputs(rng.standard_normal((3, 8)) * 3)
    op = "aten::var.correction_out"
    (got,) = run_bfloat16(kernel, op, [In(x), IntList((1,)), None, False, Out(np.float32, (3,))])
    assert_bfloat16_close(got, x.var(axis=1, ddof=1), rtol=2e-2)
    (got,) = run_bfloat16(kernel, op, [In(x), None, 0, True, Out(np.float32, (1, 1))])
    assert_bfloat16_close(got, x.var(keepdims=True), rtol=2e-2)
