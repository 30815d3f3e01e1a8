"""Comparing a conformance output with PyTorch's, by the table verification uses.

The tolerances are `codegen/tolerances.py`'s, so a program passes here exactly when a
build would accept it. A BFloat16 method returns its results cast to float32 (`.npy` has
no BFloat16), and they are held to the BFloat16 row, not the float32 one.
"""

from __future__ import annotations

import numpy as np

from codegen.tolerances import mismatches, tolerance


def compare(
    index: int, actual: np.ndarray, expected: np.ndarray, computed_in_bfloat16: bool
) -> str | None:
    """None when output `index` matches, else one deterministic line saying how it differs."""
    if actual.dtype != expected.dtype:
        return f"output {index}: dtype {actual.dtype}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"output {index}: shape {actual.shape}, expected {expected.shape}"
    atol, rtol = tolerance(expected.dtype.name, computed_in_bfloat16)
    wrong = mismatches(actual, expected, atol, rtol)
    if not wrong.any():
        return None
    worst = int(np.flatnonzero(wrong)[0])
    return (
        f"output {index}: {int(np.sum(wrong))} of {expected.size} values differ "
        f"(atol {atol}, rtol {rtol}); first at flat index {worst}: "
        f"{actual.flat[worst]!r}, expected {expected.flat[worst]!r}"
    )
