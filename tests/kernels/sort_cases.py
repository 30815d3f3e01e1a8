"""The order sort and topk give, for their tests: NaN above every number, ties in self's
order (what torch's stable sort gives)."""

from __future__ import annotations

import functools
import math

import numpy as np


def _compare(descending: bool, a: tuple[object, int], b: tuple[object, int]) -> int:
    (x, i), (y, j) = a, b

    def greater(p: object, q: object) -> bool:
        p_nan = isinstance(p, float) and math.isnan(p)
        q_nan = isinstance(q, float) and math.isnan(q)
        if p_nan:
            return not q_nan
        return not q_nan and p > q  # type: ignore[operator]

    if greater(x, y):
        return -1 if descending else 1
    if greater(y, x):
        return 1 if descending else -1
    return -1 if i < j else 1


def stable_order(x: np.ndarray, dim: int, descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """(values, int64 indices) of a stable sort of x along dim."""
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    moved = np.moveaxis(x, dim, -1)
    flat = moved.reshape(int(np.prod(moved.shape[:-1])), moved.shape[-1])
    indices = np.zeros(flat.shape, np.int64)
    for row in range(flat.shape[0]):
        items = [(flat[row, i].item(), i) for i in range(flat.shape[1])]
        ordered = sorted(items, key=functools.cmp_to_key(functools.partial(_compare, descending)))
        indices[row] = [i for _, i in ordered]
    indices = np.moveaxis(indices.reshape(moved.shape), -1, dim)
    return np.take_along_axis(x, indices, dim), indices
