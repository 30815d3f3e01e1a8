"""Comparing a runner's outputs with a model's reference outputs.

The rule is `codegen/tolerances.py`'s (Note [Scaled tolerance]), the one the conformance
tests use too: integers and booleans must match exactly; floating types within bounds
sized to their precision, relative to each output's scale. A reference that proves
nothing (degenerate) is said so, not counted as verified.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selective_build.codegen.paths import not_a_regular_file
from selective_build.codegen.tolerances import Comparison, compare_to_reference

# The .npy dtypes the runner reads and writes (runtime/runner/npy.cpp), as numpy spells
# them: little-endian, 3 characters each. complex128's "<c16" is left out: the code to read
# it does not fit the smallest runner's last code page (docs/runner.md).
RUNNER_NPY_DTYPES = ("|b1", "|u1", "|i1", "<i2", "<i4", "<i8", "<f2", "<f4", "<f8", "<c8")
NPY_MAGIC = b"\x93NUMPY"


@dataclass(frozen=True)
class OutputCheck:
    """One output against its reference: what differs (None: within the tolerance), and
    the comparison when the values could be compared."""

    problem: str | None
    comparison: Comparison | None = None


def runner_npy_problem(path: Path) -> str | None:
    """Why the runner cannot carry the dtype of the .npy file `path` (an input it reads, a
    reference whose output it writes), in one line; None when it can. Only the header is
    read. Byte order and Fortran order are no obstacle: verification hands the runner a
    little-endian C-order copy of such an input (`runner_ready_input`). A file numpy cannot
    read at all is left to the comparison, which says what is wrong with it."""
    array = _map_array(path)
    if isinstance(array, str):
        return None
    dtype = array.dtype.newbyteorder("<") if array.dtype.byteorder == ">" else array.dtype
    del array  # unmaps the file
    if dtype.str not in RUNNER_NPY_DTYPES:
        return (
            f"{dtype.name} arrays are not supported by the runner (bool, uint8, int8, int16, "
            "int32, int64, float16, float32, float64 and complex64 are)"
        )
    return None


def runner_ready_input(path: Path, folder: Path, index: int) -> Path:
    """`path` itself when the runner reads it as it is, else a copy in `folder` the runner
    reads: C order, little-endian (numpy writes either; the runner maps the file as it
    is). A file numpy cannot read is passed as it is: the runner says what is wrong."""
    import numpy as np

    array = _map_array(path)
    if isinstance(array, str):
        return path
    if array.dtype.byteorder != ">" and (array.ndim < 2 or array.flags.c_contiguous):
        return path
    copy = folder / f"input{index}.npy"
    np.save(copy, np.ascontiguousarray(array, array.dtype.newbyteorder("<")))
    return copy


def compare_output(expected_path: Path, actual_path: Path) -> str | None:
    """None when `actual_path` matches `expected_path`, else what differs (one line)."""
    return check_output(expected_path, actual_path).problem


def check_output(expected_path: Path, actual_path: Path) -> OutputCheck:
    """`actual_path` (the runner's output) against `expected_path` (its reference)."""
    import numpy as np

    expected = _map_array(expected_path)
    if isinstance(expected, str):
        return OutputCheck(f"reference {expected_path}: {expected}")
    if not actual_path.is_file():
        return OutputCheck(f"{actual_path.name} was not written")
    actual = _map_array(actual_path)
    if isinstance(actual, str):
        return OutputCheck(f"{actual_path.name}: {actual}")
    # Byte order is how a file stores a value, not which value: compared as native.
    if actual.dtype.newbyteorder("=") != expected.dtype.newbyteorder("="):
        return OutputCheck(f"{actual_path.name}: dtype {actual.dtype}, expected {expected.dtype}")
    if actual.shape != expected.shape:
        return OutputCheck(f"{actual_path.name}: shape {actual.shape}, expected {expected.shape}")
    if expected.ndim > 1 and not expected.flags.c_contiguous:
        expected = np.ascontiguousarray(expected)  # a Fortran-order reference, in C order
    comparison = compare_to_reference(actual, expected)
    if not comparison.wrong:
        return OutputCheck(None, comparison)
    at = comparison.farthest_wrong
    return OutputCheck(
        f"{actual_path.name}: {comparison.wrong} of {comparison.size} values differ; largest "
        f"at flat index {at}: {actual.flat[at]!r} vs expected {expected.flat[at]!r}",
        comparison,
    )


def degenerate_detail(index: int, comparison: Comparison) -> str:
    """Why output `index`'s reference proves nothing (Note [Scaled tolerance])."""
    if comparison.scale == 0:
        return f"output {index} has no nonzero finite value: a runner writing zeros matches it"
    return (
        f"output {index}'s largest value, {comparison.scale:.3g}, is within the absolute "
        f"tolerance {comparison.atol:g} of zero: a runner writing zeros matches it"
    )


def _map_array(path: Path) -> Any:
    """The array in the `.npy` file `path`, mapped rather than read (only what a
    comparison touches is loaded), or what is wrong with it (one line).

    Pickled (object) arrays stay refused: loading one runs code from the file.
    """
    import numpy as np

    problem = not_a_regular_file(path)
    if problem is not None:
        return problem
    try:
        with path.open("rb") as file:
            head = file.read(len(NPY_MAGIC))
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    if head != NPY_MAGIC[: len(head)] or len(head) < len(NPY_MAGIC):
        if head.startswith(b"PK"):  # a zip archive: what numpy.savez writes
            return "is an .npz archive, not one .npy array"
        return "not an .npy file (it does not start with .npy's magic bytes; numpy.save writes one)"
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        return f"not a valid .npy file ({reason})"
    return array
