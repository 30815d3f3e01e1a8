"""reflection_pad{1,2,3}d and replication_pad{1,2,3}d: one shared copy loop (nn_pad.h)."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails, assert_same

MODES = {"reflection": "reflect", "replication": "edge"}


def _reference(x: np.ndarray, padding: tuple[int, ...], mode: str) -> np.ndarray:
    """numpy's pad, pairs given last dim first as torch does; negative entries crop."""
    n = len(padding) // 2
    pairs = [(0, 0)] * (x.ndim - n) + [
        (padding[2 * i], padding[2 * i + 1]) for i in reversed(range(n))
    ]
    grow = [(max(a, 0), max(b, 0)) for a, b in pairs]
    y = np.pad(x, grow, mode=MODES[mode])  # type: ignore[call-overload]
    crop = tuple(slice(max(-a, 0), y.shape[d] - max(-b, 0)) for d, (a, b) in enumerate(pairs))
    return y[crop]


def _out_shape(x: np.ndarray, padding: tuple[int, ...]) -> tuple[int, ...]:
    shape = list(x.shape)
    for i in range(len(padding) // 2):
        shape[-1 - i] += padding[2 * i] + padding[2 * i + 1]
    return tuple(shape)


CALLS = [
    (1, (2, 5), (2, 1)),
    (1, (2, 3, 5), (0, 4)),
    (2, (2, 4, 5), (1, 3, 2, 0)),
    (2, (1, 2, 3, 4), (3, 2, 2, 1)),
    (3, (2, 3, 4, 5), (1, 2, 0, 3, 2, 1)),
    (3, (1, 2, 2, 3, 4), (3, 0, 1, 1, 1, 0)),
]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize(("n", "shape", "padding"), CALLS)
def test_pad_matches_numpy(
    kernel: KernelRunner, mode: str, n: int, shape: tuple[int, ...], padding: tuple[int, ...]
) -> None:
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    op = f"aten::{mode}_pad{n}d.out"
    (out,) = kernel.run(op, [In(x), IntList(padding), Out(x.dtype, _out_shape(x, padding))])
    assert_same(out, _reference(x, padding, mode))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("mode", sorted(MODES))
def test_pad_every_dtype(kernel: KernelRunner, mode: str, dtype: type) -> None:
    x = (np.random.default_rng(90).standard_normal((2, 3, 4)) * 5).astype(dtype)
    padding = (2, 1, 1, 2)
    op = f"aten::{mode}_pad2d.out"
    (out,) = kernel.run(op, [In(x), IntList(padding), Out(dtype, _out_shape(x, padding))])
    assert_same(out, _reference(x, padding, mode))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_pad_crops_strided_and_empty(kernel: KernelRunner, mode: str) -> None:
    x = np.arange(2 * 3 * 4 * 5, dtype=np.int64).reshape(2, 3, 4, 5)
    op = f"aten::{mode}_pad2d.out"
    padding = (-1, 2, 1, -2)
    out_shape = _out_shape(x, padding)
    (out,) = kernel.run(
        op, [In(x, dim_order=(0, 2, 3, 1)), IntList(padding), Out(np.int64, out_shape)]
    )
    assert_same(out, _reference(x, padding, mode))
    (out,) = kernel.run(
        op, [In(x), IntList(padding), Out(np.int64, out_shape, dim_order=(0, 2, 3, 1))]
    )
    assert_same(out, _reference(x, padding, mode))
    empty = np.zeros((0, 3, 4), np.float32)
    (out,) = kernel.run(op, [In(empty), IntList((1, 1, 1, 1)), Out(np.float32, (0, 5, 6))])
    assert out.shape == (0, 5, 6)


def test_pad_errors(kernel: KernelRunner) -> None:
    x = np.ones((2, 3, 4), np.float32)
    for op, padding, out, text in (
        ("aten::reflection_pad2d.out", (1, 1), (2, 3, 6), "two entries per padded dim"),
        ("aten::reflection_pad1d.out", (4, 0), (2, 3, 8), "smaller than the padded dim"),
        ("aten::reflection_pad2d.out", (0, 0, 0, 3), (2, 6, 4), "smaller than the padded dim"),
        ("aten::replication_pad1d.out", (-3, -2), (2, 3, 0), "negative"),
        ("aten::replication_pad3d.out", (1,) * 6, (4, 5, 6), "one or two dims more"),
        ("aten::replication_pad1d.out", (1, 1), (2, 3, 5), "wrong shape"),
    ):
        assert_fails(kernel, op, [In(x), IntList(padding), Out(np.float32, out)], text)
    op = "aten::replication_pad1d.out"
    args = [In(np.ones((2, 0), np.float32)), IntList((1, 1)), Out(np.float32, (2, 2))]
    assert_fails(kernel, op, args, "non-empty padded dim")
    assert_fails(kernel, op, [In(x), IntList((1, 1)), Out(np.float64, (2, 3, 6))], "self's dtype")
