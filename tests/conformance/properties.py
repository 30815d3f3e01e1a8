"""Judging a conformance program by a property of its outputs, for the programs whose
values PyTorch cannot predict (a case's `compare`, recorded in index.json):

- `shape`: uninitialized outputs (empty): each output's dtype and shape are PyTorch's.
- `uniform` (rand): besides that, every value in [0, 1) and, with 1,000 values or more,
  a mean within 0.05 of 0.5.
- `normal` (randn): every value finite and, with 1,000 values or more, a mean within
  0.15 of 0 and a standard deviation within 0.15 of 1.
- `dropout` (native_dropout's out and mask): the mask is Bool; where it is true the output
  is the input times the scale PyTorch applied, elsewhere 0; with 1,000 values or more the
  kept fraction is within 0.1 of PyTorch's.

The kernels draw from a generator with a fixed seed (Note [Random kernels] in
kernels/portable/util/random.h), so a program gives the same values every run: these
checks cannot flicker. With 1,000 draws the bounds are more than 5 standard errors wide.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from selective_build.codegen.tolerances import mismatches, tolerance

# Below this many values the statistics say too little to check.
_MANY = 1000


def check_property(
    kind: str,
    inputs: Sequence[np.ndarray],
    actual: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
    computed_in_bfloat16: bool,
) -> str | None:
    """None when the outputs have property `kind`, else one line saying how they do not."""
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        if got.dtype != want.dtype:
            return f"output {index}: dtype {got.dtype}, expected {want.dtype}"
        if got.shape != want.shape:
            return f"output {index}: shape {got.shape}, expected {want.shape}"
    if kind == "shape":
        return None
    if kind == "uniform":
        return _uniform(actual[0].astype(np.float64))
    if kind == "normal":
        return _normal(actual[0].astype(np.float64))
    if kind == "dropout":
        return _dropout(inputs[0], actual, expected, computed_in_bfloat16)
    return f"unknown compare kind {kind!r}"


def _uniform(x: np.ndarray) -> str | None:
    if x.size and (x.min() < 0.0 or x.max() >= 1.0):
        return f"output 0: values outside [0, 1): min {x.min()!r}, max {x.max()!r}"
    if x.size >= _MANY and abs(x.mean() - 0.5) > 0.05:
        return f"output 0: mean {x.mean():.4f} of {x.size} uniform values, expected 0.5"
    return None


def _normal(x: np.ndarray) -> str | None:
    if not np.isfinite(x).all():
        return "output 0: values that are not finite"
    if x.size >= _MANY and (abs(x.mean()) > 0.15 or abs(x.std() - 1.0) > 0.15):
        return f"output 0: mean {x.mean():.4f}, std {x.std():.4f} of {x.size} values, expected 0, 1"
    return None


def _dropout(
    x: np.ndarray,
    actual: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
    computed_in_bfloat16: bool,
) -> str | None:
    out, mask = actual
    want_out, want_mask = expected
    if mask.dtype != np.bool_:
        return f"output 1: dtype {mask.dtype}, expected bool"
    kept = want_mask & (x != 0)
    # PyTorch's scale, read off its own output: 1 / (1 - p).
    scale = float(np.median(want_out[kept] / x[kept])) if kept.any() else 1.0
    wanted = np.where(mask, x.astype(np.float64) * scale, 0.0).astype(out.dtype)
    atol, rtol = tolerance(out.dtype.name, computed_in_bfloat16)
    wrong = mismatches(out, wanted, atol, rtol)
    if wrong.any():
        first = int(np.flatnonzero(wrong)[0])
        return (
            f"output 0: {int(wrong.sum())} of {out.size} values are neither 0 nor the input "
            f"scaled by {scale:.4f} as the mask says; first at flat index {first}"
        )
    if mask.size >= _MANY and abs(mask.mean() - want_mask.mean()) > 0.1:
        return f"output 1: kept fraction {mask.mean():.4f}, PyTorch's {want_mask.mean():.4f}"
    return None
