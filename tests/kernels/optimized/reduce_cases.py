"""Calls for the optimized mean and sum tests: trailing dims of contiguous tensors (the
fast rows: the last dim, the last two, all of them, with and without keepdim), other dim
sets and layouts (portable's walk), empty reductions and a dtype= argument."""

from __future__ import annotations

import numpy as np

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, Out, scalar_type
from tests.kernels.optimized.compare import random


def _out(shape: tuple[int, ...], dims: tuple[int, ...] | None, keepdim: bool) -> Out:
    rank = len(shape)
    reduced = set(range(rank)) if not dims else {d % rank for d in dims}
    kept = tuple(
        1 if d in reduced else n for d, n in enumerate(shape) if keepdim or d not in reduced
    )
    return Out(np.float32, kept)


def calls() -> list[list[object]]:
    """(self, dim, keepdim, dtype, out) argument lists."""
    cases: list[list[object]] = []
    for shape, dims in [
        ((4, 64), (-1,)),
        ((3, 37), (1,)),
        ((2, 3, 17), (2,)),
        ((2, 3, 17), (1, 2)),
        ((2, 3, 17), None),
        ((2, 3, 17), ()),
        ((5,), (0,)),
        ((1000,), None),
        ((2, 3, 17), (0,)),  # leading: portable's walk
        ((2, 3, 17), (0, 2)),
        ((4, 0), (1,)),  # empty rows: sum 0, mean NaN
        ((0, 4), (1,)),  # no rows
    ]:
        x = random(shape, len(shape) + sum(shape))
        dim = None if dims is None else IntList(dims)
        for keepdim in (False, True):
            cases.append([In(x), dim, keepdim, None, _out(shape, dims, keepdim)])
    x = random((2, 3, 4, 5), 3)
    cases.append([In(x, (0, 2, 3, 1)), IntList((1,)), False, None, Out(np.float32, (2, 4, 5))])
    float_number = scalar_type(np.float32).number
    cases.append([In(x), IntList((-1,)), False, float_number, Out(np.float32, (2, 3, 4))])
    cases.append([In(np.array(2.5, np.float32)), None, False, None, Out(np.float32, ())])
    return cases
