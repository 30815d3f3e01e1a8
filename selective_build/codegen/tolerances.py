"""How close an output must be to its reference: the one table, by dtype, and the one rule.

Verification (`codegen/verify.py`) and the conformance tests (`tests/conformance/`) both
compare with `compare_to_reference`, so a program passes the tests exactly when a build
would accept its outputs.

Integers and booleans must match exactly (compared as integers: a float comparison would
let two int64 values 1 apart above 2^53 pass). Floating outputs are held to the bounds of
their dtype's row, relative to the output's scale (Note [Scaled tolerance]); the bounds
are sized to each dtype's precision: a few units in the last place of a result that went
through a short chain of kernels. BFloat16 has no `.npy` form, so a BFloat16 result
reaches a file as float32; a caller that knows the values were computed in BFloat16 asks
for that row.
"""

from __future__ import annotations

from dataclasses import dataclass
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

# Values compared at a time: the comparison's memory stays a few MiB whatever the size of
# the output (verification bounds it too, but a user may raise that bound).
_BLOCK = 1 << 18


def tolerance(dtype_name: str, computed_in_bfloat16: bool = False) -> tuple[float, float]:
    """(atol, rtol) for an output of numpy dtype `dtype_name`; a float32 output whose
    values were computed in BFloat16 gets BFloat16's row."""
    if computed_in_bfloat16 and dtype_name == "float32":
        dtype_name = "bfloat16"
    return TOLERANCES.get(dtype_name, (0.0, 0.0))


def mismatches(actual: np.ndarray, expected: np.ndarray, atol: float, rtol: float) -> np.ndarray:
    """A boolean array, True where `actual` is not within `atol + rtol * |expected|` of
    `expected` (same shape): the bound value by value, with no scale (kernel tests that
    size their own `atol` use it)."""
    import numpy as np

    if expected.dtype.kind in "fc":
        close: np.ndarray = np.isclose(actual, expected, atol=atol, rtol=rtol, equal_nan=True)
        return ~close
    different: np.ndarray = np.not_equal(actual, expected)  # isclose's subtraction refuses bool
    return different


# Note [Scaled tolerance]
# A floating output is compared relative to its scale S, the largest finite |value| of
# its reference:
#     |actual - expected| <= atol * S + rtol * |expected|      (NaN matches NaN)
# An absolute bound alone would judge an output of values near 1e-9 by whether it is
# within 1e-5 of them, which anything is, and one of values near 1e4 by cancellation
# errors its own magnitude explains; scaled, the bound means the same at any magnitude.
# A reference is *degenerate* when S <= atol (every value of it within the dtype's
# absolute tolerance of zero: all zeros, a zero-initialised head, outputs of ~1e-9) or, for
# an exact dtype, when it is all zeros (all False): a runner writing zeros would match it,
# so matching proves nothing. It is compared with the plain bound atol + rtol * |expected|
# (scaling by nearly nothing would ask for exact equality of rounding noise) and reported
# as degenerate, never as verified. The worst error reported is the largest
# |actual - expected|; divided by S it is the error relative to the output's scale.


@dataclass(frozen=True)
class Comparison:
    """How an output compares with its reference (Note [Scaled tolerance])."""

    size: int  # values compared
    scale: float  # the largest finite |expected| (0.0 when there is none)
    degenerate: bool
    wrong: int  # values outside the bound
    first_wrong: int  # flat index of the first of them, -1 when none
    farthest_wrong: int  # flat index of the farthest (a NaN against a number is), -1 when none
    worst_error: float  # the largest |actual - expected| (inf: a NaN against a number)
    atol: float
    rtol: float

    @property
    def relative_error(self) -> float:
        """The worst error relative to the output's scale (absolute when the scale is 0)."""
        return self.worst_error / self.scale if self.scale > 0 else self.worst_error


def compare_to_reference(
    actual: np.ndarray, expected: np.ndarray, computed_in_bfloat16: bool = False
) -> Comparison:
    """Compare `actual` with `expected` (same shape and dtype; memory maps are read a block
    at a time) by the dtype's row of the table, relative to the scale of `expected`."""
    import numpy as np

    atol, rtol = tolerance(expected.dtype.name, computed_in_bfloat16)
    exact = expected.dtype.kind not in "fc"
    flat_expected, flat_actual = expected.reshape(-1), actual.reshape(-1)
    scale = 0.0
    for start in range(0, flat_expected.size, _BLOCK):
        block = np.abs(_wide(flat_expected[start : start + _BLOCK]))
        finite = block[np.isfinite(block)]
        scale = max(scale, float(finite.max()) if finite.size else 0.0)
    degenerate = scale <= atol
    absolute = atol if degenerate else atol * scale
    wrong, first, farthest, worst, farthest_gap = 0, -1, -1, 0.0, -1.0
    for start in range(0, flat_expected.size, _BLOCK):
        want, got = flat_expected[start : start + _BLOCK], flat_actual[start : start + _BLOCK]
        if exact:
            bad = np.not_equal(got, want)
        else:
            want, got = _wide(want), _wide(got)
            bad = ~np.isclose(got, want, atol=absolute, rtol=rtol, equal_nan=True)
        gap = _gaps(_wide(got), _wide(want))
        worst = max(worst, float(gap.max()) if gap.size else 0.0)
        if bad.any():
            wrong += int(bad.sum())
            first = start + int(np.argmax(bad)) if first < 0 else first
            at = int(np.argmax(np.where(bad, gap, -1.0)))
            if gap[at] > farthest_gap:
                farthest, farthest_gap = start + at, float(gap[at])
    size = int(flat_expected.size)
    return Comparison(size, scale, degenerate, wrong, first, farthest, worst, atol, rtol)


def _wide(values: np.ndarray) -> np.ndarray:
    """`values` as float64 (complex128 for complex ones): differences are exact enough."""
    import numpy as np

    wide: np.ndarray = values.astype(np.complex128 if values.dtype.kind == "c" else np.float64)
    return wide


def _gaps(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """|actual - expected|, 0 where they are equal (infinities, and NaN against NaN), inf
    where a NaN meets a number."""
    import numpy as np

    with np.errstate(invalid="ignore"):
        gap: np.ndarray = np.abs(actual - expected)
    same = (actual == expected) | (np.isnan(actual) & np.isnan(expected))
    gap[same] = 0.0
    gap[np.isnan(gap)] = np.inf
    return gap
