"""How close an output must be to its reference: the one table, by dtype.

Verification (`codegen/verify.py`) and the conformance tests (`tests/conformance/`) both
read it, so a program passes the tests exactly when a build would accept its outputs.

Integers and booleans must match exactly (compared as integers: a float comparison would
let two int64 values 1 apart above 2^53 pass). Floating outputs must satisfy
`|actual - expected| <= atol + rtol * |expected|` (NaN matches NaN), with bounds sized to
each dtype's precision: a few units in the last place of a result that went through a
short chain of kernels. BFloat16 has no `.npy` form, so a BFloat16 result reaches a file
as float32; a caller that knows the values were computed in BFloat16 asks for that row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# numpy dtype name -> (absolute, relative); a dtype not listed must match exactly.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-2, 1e-2),  # 11-bit significand: one ulp is 2^-10 relative
    "bfloat16": (1e-2, 1.6e-2),  # 8-bit significand: one ulp is 2^-7 relative
    "float32": (1e-5, 1e-4),
    "float64": (1e-10, 1e-9),
}


def tolerance(dtype_name: str, computed_in_bfloat16: bool = False) -> tuple[float, float]:
    """(atol, rtol) for an output of numpy dtype `dtype_name`; a float32 output whose
    values were computed in BFloat16 gets BFloat16's row."""
    if computed_in_bfloat16 and dtype_name == "float32":
        dtype_name = "bfloat16"
    return TOLERANCES.get(dtype_name, (0.0, 0.0))


def mismatches(actual: np.ndarray, expected: np.ndarray, atol: float, rtol: float) -> np.ndarray:
    """A boolean array, True where `actual` is not close enough to `expected` (same shape)."""
    import numpy as np

    if expected.dtype.kind in "fc":
        close: np.ndarray = np.isclose(actual, expected, atol=atol, rtol=rtol, equal_nan=True)
        return ~close
    different: np.ndarray = np.not_equal(actual, expected)  # isclose's subtraction refuses bool
    return different
