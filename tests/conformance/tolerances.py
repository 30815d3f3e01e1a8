"""How close a conformance output must be to PyTorch's: the one table, by dtype.

Integers and booleans must match exactly. Half, Float and Double use the bounds model
verification uses (`codegen.verify.TOLERANCES`), so a program passes here exactly when a
build would accept it. BFloat16 (8 bits of mantissa, one unit in the last place is 2^-7
relative) has no `.npy` form: a BFloat16 program returns its results cast to float32, and
they are held to the BFloat16 row, not the float32 one.
"""

from __future__ import annotations

import numpy as np

from codegen.verify import TOLERANCES as _VERIFY

# dtype name -> (absolute, relative); a dtype not listed must match exactly.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": _VERIFY["float16"],
    "bfloat16": (1e-2, 1.6e-2),
    "float32": _VERIFY["float32"],
    "float64": _VERIFY["float64"],
}


def tolerance(output: np.ndarray, computed_in_bfloat16: bool) -> tuple[float, float]:
    """(atol, rtol) for `output`; a float32 output of a BFloat16 program uses BFloat16's."""
    name = output.dtype.name
    if computed_in_bfloat16 and name == "float32":
        name = "bfloat16"
    return TOLERANCES.get(name, (0.0, 0.0))


def compare(
    index: int, actual: np.ndarray, expected: np.ndarray, computed_in_bfloat16: bool
) -> str | None:
    """None when output `index` matches, else one deterministic line saying how it differs."""
    if actual.dtype != expected.dtype:
        return f"output {index}: dtype {actual.dtype}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"output {index}: shape {actual.shape}, expected {expected.shape}"
    atol, rtol = tolerance(expected, computed_in_bfloat16)
    if expected.dtype.kind in "fc":
        close = np.isclose(actual, expected, atol=atol, rtol=rtol, equal_nan=True)
    else:
        close = actual == expected  # isclose subtracts, which bool arrays refuse
    if close.all():
        return None
    worst = int(np.flatnonzero(~close)[0])
    return (
        f"output {index}: {int(np.sum(~close))} of {expected.size} values differ "
        f"(atol {atol}, rtol {rtol}); first at flat index {worst}: "
        f"{actual.flat[worst]!r}, expected {expected.flat[worst]!r}"
    )
