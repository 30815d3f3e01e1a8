from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import choose_qparams

OP = "quantized_decomposed::choose_qparams_per_token_asymmetric.out"


def _expected(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows = x.reshape(-1, x.shape[-1])
    pairs = [choose_qparams(float(r.min()), float(r.max()), -128, 127) for r in rows]
    shape = (*x.shape[:-1], 1)
    scales = np.array([p[0] for p in pairs]).reshape(shape)
    return scales, np.array([p[1] for p in pairs], np.int64).reshape(shape)


def test_one_pair_per_token(kernel: KernelRunner) -> None:
    x = np.random.default_rng(3).uniform(-2, 5, (2, 3, 6)).astype(np.float32)
    x[1, 2] = np.linspace(0.1, 0.9, 6)  # a token of positive values only
    outs = [Out(np.float64, (2, 3, 1)), Out(np.int64, (2, 3, 1))]
    scales, zero_points = kernel.run(OP, [In(x), 1, *outs])
    expected_scales, expected_zero_points = _expected(x)
    np.testing.assert_array_equal(scales, expected_scales)
    np.testing.assert_array_equal(zero_points, expected_zero_points)


def test_dynamic_outs_and_a_permuted_input(kernel: KernelRunner) -> None:
    x = np.random.default_rng(4).uniform(-1, 1, (4, 5)).astype(np.float32)
    outs = [Out(np.float64, (8, 1), dynamic=True), Out(np.int64, (8, 1), dynamic=True)]
    scales, zero_points = kernel.run(OP, [In(x, (1, 0)), 1, *outs])
    expected_scales, expected_zero_points = _expected(x)
    np.testing.assert_array_equal(scales, expected_scales)
    np.testing.assert_array_equal(zero_points, expected_zero_points)


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    outs = [Out(np.float64, ()), Out(np.int64, ())]
    assert_fails(kernel, OP, [In(np.array(1.0, np.float32)), 1, *outs], "at least one dim")
    x = In(np.ones((2, 3), np.float32))
    outs = [Out(np.float64, (2, 1)), Out(np.int32, (2, 1))]
    assert_fails(kernel, OP, [x, 1, *outs], "zero_point_out must be a Long tensor")
    outs = [Out(np.float64, (3, 1)), Out(np.int64, (3, 1))]
    assert_fails(kernel, OP, [x, 1, *outs], "out has the wrong shape")
    halves = In(np.ones((2, 3), np.float16))
    outs = [Out(np.float64, (2, 1)), Out(np.int64, (2, 1))]
    assert_fails(kernel, OP, [halves, 1, *outs], "dtype Half")
