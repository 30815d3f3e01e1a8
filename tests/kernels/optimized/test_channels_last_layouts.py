"""The kernels a channels-last conv net calls (Note [Channels last],
runtime/executor/channels_last.h) give the same values whatever the dim orders of their
tensors, in every mix of contiguous and channels-last ones: portable's the same bits as on
contiguous tensors, the optimized ones (with portable behind them) its values within the
tolerance table (their channels-last sums run in another order; the max pool's indices and
the copies exactly).

These are the calls the layout pass may hand channels-last tensors: max pools (indices
read or not), average pools, adaptive ones, means over H and W, channel cats, residual
adds, an SE gate's mul, activations and the head's view of [N, C, 1, 1]."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from selective_build.codegen.tolerances import mismatches, tolerance
from tests.kernels.harness import In, InList, Out
from tests.kernels.optimized.compare import random
from tests.kernels.optimized.conftest import Both

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

LAST = (0, 2, 3, 1)
X = random((2, 40, 9, 11), 1)
Y = random((2, 40, 9, 11), 2)
GATE = random((2, 40, 1, 1), 3)
SIDE = random((2, 24, 9, 11), 4)


def _order(layout: bool, array: np.ndarray) -> tuple[int, ...] | None:
    return LAST if layout and array.ndim == 4 else None


# op -> a call, given whether each of its tensors (inputs, then outs) is channels last.
CALLS = {
    "aten::max_pool2d_with_indices.out": lambda x, o, i: [
        In(X, _order(x, X)),
        IntList((3, 3)),
        IntList((2, 2)),
        IntList((1, 1)),
        IntList((1, 1)),
        True,
        Out(np.float32, (2, 40, 5, 6), _order(o, X)),
        Out(np.int64, (2, 40, 5, 6), _order(i, X)),
    ],
    "aten::avg_pool2d.out": lambda x, o: [
        In(X, _order(x, X)),
        IntList((3, 3)),
        IntList((2, 2)),
        IntList((1, 1)),
        True,
        False,
        None,
        Out(np.float32, (2, 40, 5, 6), _order(o, X)),
    ],
    "aten::_adaptive_avg_pool2d.out": lambda x, o: [
        In(X, _order(x, X)),
        IntList((1, 1)),
        Out(np.float32, (2, 40, 1, 1), _order(o, X)),
    ],
    "aten::mean.out": lambda x, o: [
        In(X, _order(x, X)),
        IntList((2, 3)),
        True,
        None,
        Out(np.float32, (2, 40, 1, 1), _order(o, X)),
    ],
    "aten::cat.out": lambda x, o: [
        InList((X, SIDE), _order(x, X)),
        1,
        Out(np.float32, (2, 64, 9, 11), _order(o, X)),
    ],
    "aten::add.out": lambda a, b, o: [
        In(X, _order(a, X)),
        In(Y, _order(b, Y)),
        1,
        Out(np.float32, X.shape, _order(o, X)),
    ],
    "aten::mul.out": lambda a, b, o: [
        In(X, _order(a, X)),
        In(GATE, _order(b, GATE)),
        Out(np.float32, X.shape, _order(o, X)),
    ],
    "aten::hardtanh.out": lambda x, o: [
        In(X, _order(x, X)),
        0.0,
        6.0,
        Out(np.float32, X.shape, _order(o, X)),
    ],
    "aten::relu.out": lambda x, o: [In(X, _order(x, X)), Out(np.float32, X.shape, _order(o, X))],
    "aten::sigmoid.out": lambda x, o: [In(X, _order(x, X)), Out(np.float32, X.shape, _order(o, X))],
    "aten::view_copy.out": lambda x: [
        In(GATE, _order(x, GATE)),
        IntList((2, 40)),
        Out(np.float32, (2, 40)),
    ],
}


def _close(got: list[np.ndarray], want: list[np.ndarray], exact: bool) -> None:
    for a, b in zip(got, want, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        if exact or a.dtype != np.float32:
            assert a.tobytes() == b.tobytes()
        else:
            atol, rtol = tolerance(b.dtype.name)
            assert not mismatches(a, b, atol, rtol).any()


@pytest.mark.parametrize("op", sorted(CALLS))
def test_every_mix_of_layouts_gives_the_contiguous_values(both: Both, op: str) -> None:
    call = CALLS[op]
    tensors = call.__code__.co_argcount
    want = both.portable.run(op, call(*[False] * tensors))
    for layouts in itertools.product((False, True), repeat=tensors):
        args = call(*layouts)
        _close(both.portable.run(op, args), want, exact=True)
        _close(both.optimized.run(op, args), want, exact=False)
