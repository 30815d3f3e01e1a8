"""Comparing a runner's outputs with a model's reference outputs.

Tolerances per dtype come from `codegen/tolerances.py`, the table the conformance tests
use too: integers and booleans must match exactly; floating types within an absolute plus
relative bound sized to their precision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codegen.paths import not_a_regular_file
from codegen.tolerances import mismatches, tolerance


def compare_output(expected_path: Path, actual_path: Path) -> str | None:
    """None when `actual_path` matches `expected_path`, else what differs (one line)."""
    import numpy as np

    expected = _load_array(expected_path)
    if isinstance(expected, str):
        return f"reference {expected_path}: {expected}"
    if not actual_path.is_file():
        return f"{actual_path.name} was not written"
    actual = _load_array(actual_path)
    if isinstance(actual, str):
        return f"{actual_path.name}: {actual}"
    if actual.dtype != expected.dtype:
        return f"{actual_path.name}: dtype {actual.dtype}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"{actual_path.name}: shape {actual.shape}, expected {expected.shape}"
    atol, rtol = tolerance(expected.dtype.name)
    wrong = mismatches(actual, expected, atol, rtol)
    if not wrong.any():
        return None
    # Point at the largest difference among the values that fail; NaN against a number
    # counts as infinitely far, so it is the one named.
    difference = np.where(
        wrong, np.abs(actual.astype(np.float64) - expected.astype(np.float64)), -1.0
    )
    difference[wrong & np.isnan(difference)] = np.inf
    worst = int(np.argmax(difference))
    return (
        f"{actual_path.name}: {int(np.sum(wrong))} "
        f"of {expected.size} values differ; largest at flat index {worst}: "
        f"{actual.flat[worst]!r} vs expected {expected.flat[worst]!r}"
    )


def _load_array(path: Path) -> Any:
    """The array in the `.npy` file `path`, or what is wrong with it (one line).

    Pickled (object) arrays stay refused: loading one runs code from the file.
    """
    import numpy as np

    problem = not_a_regular_file(path)
    if problem is not None:
        return problem
    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        return f"not a valid .npy file ({reason})"
    if not isinstance(array, np.ndarray):  # an .npz archive: a mapping of arrays
        array.close()
        return "is an .npz archive, not one .npy array"
    return array
