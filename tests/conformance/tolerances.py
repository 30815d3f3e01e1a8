"""Comparing a conformance output with PyTorch's, by the table verification uses.

The rule is `codegen/tolerances.py`'s (Note [Scaled tolerance]), so a program passes here
exactly when a build would accept it (a degenerate expected output, say of `zeros`, is no
failure here: the program is what is tested, not the reference). A BFloat16 method returns
its results cast to float32 (`.npy` has no BFloat16), and they are held to the BFloat16
row, not the float32 one.
"""

from __future__ import annotations

import numpy as np

from selective_build.codegen.tolerances import compare_to_reference


def compare(
    index: int, actual: np.ndarray, expected: np.ndarray, computed_in_bfloat16: bool
) -> str | None:
    """None when output `index` matches, else one deterministic line saying how it differs."""
    if actual.dtype != expected.dtype:
        return f"output {index}: dtype {actual.dtype}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"output {index}: shape {actual.shape}, expected {expected.shape}"
    comparison = compare_to_reference(actual, expected, computed_in_bfloat16)
    if not comparison.wrong:
        return None
    first = comparison.first_wrong
    return (
        f"output {index}: {comparison.wrong} of {expected.size} values differ "
        f"(atol {comparison.atol}, rtol {comparison.rtol}); first at flat index {first}: "
        f"{actual.flat[first]!r}, expected {expected.flat[first]!r}"
    )
