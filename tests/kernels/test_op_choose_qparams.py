from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.quantized_reference import choose_qparams

OP = "quantized_decomposed::choose_qparams.Tensor_out"
EPS = float(np.finfo(np.float32).eps)


def _outs() -> tuple[Out, Out]:
    return Out(np.float64, (1,)), Out(np.int64, (1,))


@pytest.mark.parametrize(
    ("values", "qmin", "qmax"),
    [
        ([-1.0, 0.5, 2.0], -128, 127),
        ([0.1, 0.7, 3.5], 0, 255),  # all positive: the range still holds 0
        ([-4.0, -0.25], -128, 127),
        ([1e-6, -2e-6], -128, 127),  # a scale below the smallest one
        ([0.0, 0.0], 0, 255),  # no range: scale 0.1
        ([-1.0, np.nan, 3.0], -32768, 32767),  # NaN is skipped
    ],
)
def test_scale_and_zero_point(
    kernel: KernelRunner, values: list[float], qmin: int, qmax: int
) -> None:
    x = np.array(values, np.float32)
    scale, zero_point = kernel.run(OP, [In(x), qmin, qmax, EPS, 1, *_outs()])
    finite = x[~np.isnan(x)]
    expected = choose_qparams(float(finite.min()), float(finite.max()), qmin, qmax)
    assert (float(scale[0]), int(zero_point[0])) == expected


def test_every_dim_order_and_empty_input(kernel: KernelRunner) -> None:
    x = np.linspace(-1, 3, 24, dtype=np.float32).reshape(1, 4, 3, 2)
    scale, zero_point = kernel.run(OP, [In(x, (0, 2, 3, 1)), -128, 127, EPS, 1, *_outs()])
    assert (float(scale[0]), int(zero_point[0])) == choose_qparams(-1.0, 3.0, -128, 127)
    empty = np.zeros((0, 3), np.float32)
    scale, zero_point = kernel.run(OP, [In(empty), -128, 127, EPS, 1, *_outs()])
    assert (float(scale[0]), int(zero_point[0])) == choose_qparams(0.0, 0.0, -128, 127)


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    x = In(np.ones(3, np.float32))
    assert_fails(kernel, OP, [x, 5, 5, EPS, 1, *_outs()], "quant_min must be less than quant_max")
    assert_fails(kernel, OP, [x, -(2**40), 5, EPS, 1, *_outs()], "must fit in 32 bits")
    doubles = In(np.ones(3, np.float64))
    assert_fails(kernel, OP, [doubles, -128, 127, EPS, 1, *_outs()], "dtype Double")
    floats = [Out(np.float32, (1,)), Out(np.int64, (1,))]
    assert_fails(kernel, OP, [x, -128, 127, EPS, 1, *floats], "scale_out must be")
    two = [Out(np.float64, (1,)), Out(np.int64, (2,))]
    assert_fails(kernel, OP, [x, -128, 127, EPS, 1, *two], "zero_point_out must be")
