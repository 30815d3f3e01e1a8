from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::constant_pad_nd.out"


def reference(x: np.ndarray, pad: tuple[int, ...], value: object) -> np.ndarray:
    """torch.constant_pad_nd: pairs pad the last dim first, negative ones crop."""
    fill = np.array(value).astype(x.dtype)
    y = x
    for i in range(len(pad) // 2):
        d = x.ndim - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        crop = [slice(None)] * x.ndim
        crop[d] = slice(max(0, -before), y.shape[d] - max(0, -after))
        y = y[tuple(crop)]
        width = [(0, 0)] * x.ndim
        width[d] = (max(0, before), max(0, after))
        y = np.pad(y, width, constant_values=fill)
    return y


def run(kernel: KernelRunner, x: np.ndarray, pad: tuple[int, ...], value: object) -> np.ndarray:
    expected = reference(x, pad, value)
    (out,) = kernel.run(OP, [In(x), IntList(pad), value, Out(x.dtype, expected.shape)])
    np.testing.assert_array_equal(out, expected)
    return out


@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(12).reshape(3, 4) % 5 + 1).astype(dtype)
    run(kernel, x, (1, 2), 0)
    run(kernel, x, (0, 1, 2, 0), 1 if dtype == np.bool_ else 7)


@pytest.mark.parametrize(
    "pad", [(), (2, 1), (1, 1, 0, 2), (1, 0, 2, 1, 1, 1), (-1, 0), (-2, 1, 1, -1), (-1, -3, 0, 0)]
)
def test_pads(kernel: KernelRunner, pad: tuple[int, ...]) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    run(kernel, x, pad, -1.5)


def test_value_kinds_layouts_and_edges(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    run(kernel, x, (1, 1), 2.75)  # a float value truncates into an integer tensor
    run(kernel, np.array([True, False]), (1, 1), True)
    f = np.array([[np.nan, np.inf], [-np.inf, 1.0]], np.float64)
    run(kernel, f, (1, 0, 0, 1), float("nan"))
    run(kernel, f, (1, 1), float("-inf"))
    run(kernel, np.array(3.0, np.float32), (), 1)  # 0-dim
    run(kernel, np.zeros((0, 3), np.int64), (1, 1, 2, 0), 4)  # empty self
    run(kernel, np.arange(4, dtype=np.int16), (-2, -2), 9)  # cropped to nothing
    y = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (out,) = kernel.run(
        OP, [In(y, (0, 2, 1)), IntList((1, 0, 0, 1)), 0.5, Out(np.float32, (2, 4, 5), (2, 0, 1))]
    )
    np.testing.assert_array_equal(out, reference(y, (1, 0, 0, 1), 0.5))


def test_bfloat16(kernel: KernelRunner) -> None:
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    (out,) = run_bfloat16(kernel, OP, [In(x), IntList((1, 1)), 0.5, Out(np.float32, (2, 5))])
    np.testing.assert_array_equal(out, reference(to_bfloat16(x), (1, 1), 0.5))


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        ((1,), Out(np.float32, (2, 3)), "pad must have an even length"),
        ((1, 1, 1, 1, 1, 1), Out(np.float32, (2, 3)), "pad has more pairs"),
        ((-2, -2), Out(np.float32, (2, 3)), "negative"),
        ((1, 1), Out(np.float32, (2, 3)), "out has the wrong shape"),
        ((1, 1), Out(np.float64, (2, 5)), "dtype"),
    ]
    for pad, out, message in cases:
        assert_fails(kernel, OP, [In(x), IntList(pad), 0, out], message)
    assert_fails(
        kernel,
        OP,
        [In(np.ones(2, np.uint8)), IntList((1, 1)), 256, Out(np.uint8, (4,))],
        "value does not fit",
    )
