"""Comparing a runner's outputs with a model's reference outputs.

Tolerances per dtype: integers and booleans must match exactly; floating types within
an absolute plus relative bound sized to their precision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codegen.paths import not_a_regular_file

# dtype name -> (absolute, relative) tolerance.
TOLERANCES = {
    "float16": (1e-2, 1e-2),
    "float32": (1e-5, 1e-4),
    "float64": (1e-10, 1e-9),
}


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
    atol, rtol = TOLERANCES.get(expected.dtype.name, (0.0, 0.0))
    if np.allclose(actual, expected, atol=atol, rtol=rtol, equal_nan=True):
        return None
    difference = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
    worst = int(np.nanargmax(difference)) if difference.size else 0
    return (
        f"{actual_path.name}: {int(np.sum(~np.isclose(actual, expected, atol=atol, rtol=rtol)))} "
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
