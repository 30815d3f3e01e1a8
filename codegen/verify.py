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

# The .npy dtypes the runner reads and writes (runtime/runner/npy.cpp), as numpy spells
# them: little-endian, 3 characters each. complex128's "<c16" is left out: the code to read
# it does not fit the smallest runner's last code page (README, "The runner").
RUNNER_NPY_DTYPES = ("|b1", "|u1", "|i1", "<i2", "<i4", "<i8", "<f2", "<f4", "<f8", "<c8")


def runner_npy_problem(path: Path) -> str | None:
    """Why the runner cannot read (an input) or write (a reference's output) an .npy file
    like `path`, in one line; None when it can. Only the header is read. A file numpy cannot
    read at all is left to the runner or the comparison, which say what is wrong with it."""
    import numpy as np

    if not_a_regular_file(path) is not None:
        return None
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError):
        return None
    if not isinstance(array, np.ndarray):  # an .npz archive
        array.close()
        return None
    dtype, fortran = array.dtype, array.ndim > 1 and not array.flags.c_contiguous
    del array  # unmaps the file
    if dtype.byteorder == ">":
        return f"a big-endian {dtype.name} array: the runner reads little-endian ones"
    if dtype.str not in RUNNER_NPY_DTYPES:
        return (
            f"{dtype.name} arrays are not supported by the runner (bool, uint8, int8, int16, "
            "int32, int64, float16, float32, float64 and complex64 are)"
        )
    if fortran:
        return "a Fortran-order array: the runner reads C order (numpy.ascontiguousarray)"
    return None


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
