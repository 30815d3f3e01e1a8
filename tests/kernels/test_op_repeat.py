from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::repeat.out"


def reference(x: np.ndarray, repeats: tuple[int, ...]) -> np.ndarray:
    """torch.Tensor.repeat: numpy's tile with self padded to len(repeats) dims."""
    return np.tile(x.reshape((1,) * (len(repeats) - x.ndim) + x.shape), repeats)


def run(kernel: KernelRunner, x: np.ndarray, repeats: tuple[int, ...], **layout: object) -> None:
    ref = reference(x, repeats)
    (out,) = kernel.run(
        OP,
        [
            In(x, layout.get("self_order")),
            IntList(repeats),
            Out(x.dtype, ref.shape, layout.get("out_order")),
        ],
    )
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    run(kernel, (np.arange(6).reshape(2, 3) % 4).astype(dtype), (2, 3))


@pytest.mark.parametrize(
    "repeats", [(1, 1), (3, 1), (1, 4), (2, 1, 2), (2, 2, 1, 3), (0, 2), (2, 0, 1)]
)
def test_repeats(kernel: KernelRunner, repeats: tuple[int, ...]) -> None:
    run(kernel, np.arange(6, dtype=np.float32).reshape(2, 3), repeats)


def test_edges_and_layouts(kernel: KernelRunner) -> None:
    run(kernel, np.array(7, np.int64), ())  # 0-dim self, no repeats
    run(kernel, np.array(7, np.int64), (3, 2))
    run(kernel, np.zeros((0, 2), np.float64), (3, 2))
    run(kernel, np.array([np.nan, np.inf, -np.inf], np.float32), (2,))
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    run(kernel, x, (2, 1, 2), self_order=(0, 2, 1))
    run(kernel, x, (1, 2, 1, 2), out_order=(0, 2, 3, 1))


def test_bfloat16(kernel: KernelRunner) -> None:
    x = np.array([[0.3, -1.5], [2.0, 7.25]], np.float32)
    (out,) = run_bfloat16(kernel, OP, [In(x), IntList((2, 2)), Out(np.float32, (4, 4))])
    np.testing.assert_array_equal(out, reference(to_bfloat16(x), (2, 2)))


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3), np.float32)
    cases = [
        ((2,), Out(np.float32, (2, 6)), "at least as many entries"),
        ((1, -1), Out(np.float32, (2, 0)), "must not be negative"),
        ((2, 2), Out(np.float32, (4, 5)), "out has the wrong shape"),
        ((2, 2), Out(np.int32, (4, 6)), "out must have self's dtype"),
    ]
    for repeats, out, message in cases:
        assert_fails(kernel, OP, [In(x), IntList(repeats), out], message)
