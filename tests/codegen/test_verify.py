"""A bad reference output is one line naming the file, never a traceback (issue 13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.verify import (
    check_output,
    compare_output,
    degenerate_detail,
    runner_npy_problem,
    runner_ready_input,
)


def _reference(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "expected.npy"
    if kind == "text":
        path.write_text("1.0 2.0 3.0\n")
    elif kind == "object":
        np.save(path, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    elif kind == "truncated":
        np.save(path, np.arange(100, dtype=np.float32))
        path.write_bytes(path.read_bytes()[:-40])
    elif kind == "truncated header":
        np.save(path, np.arange(100, dtype=np.float32))
        path.write_bytes(path.read_bytes()[:20])
    elif kind == "npz":
        with path.open("wb") as file:
            np.savez(file, a=np.zeros(3))
    elif kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    return path


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        # Issue 22, item 9: numpy's own words for a text file were "pickled (object) data".
        (
            "text",
            "not an .npy file (it does not start with .npy's magic bytes; numpy.save writes one)",
        ),
        (
            "object",
            "not a valid .npy file (Array can't be memory-mapped: Python objects in dtype.)",
        ),
        ("truncated", "not a valid .npy file"),
        ("truncated header", "not a valid .npy file"),
        ("npz", "is an .npz archive, not one .npy array"),
        ("directory", "is a directory"),
        ("empty", "not an .npy file"),
    ],
)
def test_bad_reference_is_one_line_naming_it(tmp_path: Path, kind: str, problem: str) -> None:
    expected = _reference(tmp_path, kind)
    actual = tmp_path / "output0.npy"
    np.save(actual, np.zeros(3, np.float32))
    message = compare_output(expected, actual)
    assert message is not None
    assert message.startswith(f"reference {expected}: {problem}")
    assert "\n" not in message and "pickle" not in message


def test_bad_runner_output_is_one_line(tmp_path: Path) -> None:
    expected = tmp_path / "expected.npy"
    np.save(expected, np.zeros(3, np.float32))
    actual = tmp_path / "output0.npy"
    actual.write_bytes(b"\x93NUMPY garbage")
    message = compare_output(expected, actual)
    assert message is not None and message.startswith("output0.npy: not a valid .npy file")
    assert "\n" not in message


def test_matching_and_differing_outputs(tmp_path: Path) -> None:
    expected, actual = tmp_path / "e.npy", tmp_path / "a.npy"
    np.save(expected, np.array([1.0, 2.0], np.float32))
    np.save(actual, np.array([1.0, 2.0], np.float32))
    assert compare_output(expected, actual) is None
    np.save(actual, np.array([1.0, 3.0], np.float32))
    assert compare_output(expected, actual) == (
        "a.npy: 1 of 2 values differ; largest at flat index 1: "
        "np.float32(3.0) vs expected np.float32(2.0)"
    )


def test_integer_outputs_must_match_exactly(tmp_path: Path) -> None:
    expected, actual = tmp_path / "e.npy", tmp_path / "a.npy"
    np.save(expected, np.array([2**62, 7], np.int64))
    np.save(actual, np.array([2**62 + 1, 7], np.int64))
    assert compare_output(expected, actual) == (
        "a.npy: 1 of 2 values differ; largest at flat index 0: "
        "np.int64(4611686018427387905) vs expected np.int64(4611686018427387904)"
    )


def test_nan_against_a_number_is_the_one_named(tmp_path: Path) -> None:
    expected, actual = tmp_path / "e.npy", tmp_path / "a.npy"
    np.save(expected, np.array([1.0, 2.0, 3.0], np.float32))
    np.save(actual, np.array([1.5, np.nan, 3.0], np.float32))
    message = compare_output(expected, actual)
    assert message is not None and message.startswith(
        "a.npy: 2 of 3 values differ; largest at flat index 1:"
    )


@pytest.mark.parametrize(
    ("array", "problem"),
    [
        (
            np.zeros(3, np.complex128),
            "complex128 arrays are not supported by the runner (bool, uint8, int8, int16, "
            "int32, int64, float16, float32, float64 and complex64 are)",
        ),
        (
            np.zeros((0, 2), np.uint64),
            "uint64 arrays are not supported by the runner (bool, "
            "uint8, int8, int16, int32, int64, float16, float32, float64 and complex64 are)",
        ),
        (
            np.zeros(3, ">u2"),
            "uint16 arrays are not supported by the runner (bool, "
            "uint8, int8, int16, int32, int64, float16, float32, float64 and complex64 are)",
        ),
    ],
    ids=["complex128", "uint64", "big-endian uint16"],
)
def test_an_array_the_runner_cannot_carry_is_one_line(
    tmp_path: Path, array: np.ndarray, problem: str
) -> None:
    np.save(tmp_path / "x.npy", array)
    assert runner_npy_problem(tmp_path / "x.npy") == problem


@pytest.mark.parametrize(
    "dtype",
    [
        "bool",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "complex64",
    ],
)
def test_the_runners_dtypes_pass(tmp_path: Path, dtype: str) -> None:
    np.save(tmp_path / "x.npy", np.zeros((2, 3), dtype))
    assert runner_npy_problem(tmp_path / "x.npy") is None
    np.save(tmp_path / "x.npy", np.zeros((), dtype))  # 0-dim
    assert runner_npy_problem(tmp_path / "x.npy") is None


def test_a_file_numpy_cannot_read_is_left_to_the_reader(tmp_path: Path) -> None:
    assert runner_npy_problem(_reference(tmp_path, "truncated header")) is None


@pytest.mark.parametrize(
    "array",
    [np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)), np.arange(3, dtype=">f4")],
    ids=["fortran", "big-endian"],
)
def test_an_input_in_another_layout_is_handed_over_in_c_order(
    tmp_path: Path, array: np.ndarray
) -> None:
    """Issue 22, item 9: a Fortran-order (or big-endian) input is read, not refused; the
    runner, which maps files as they are, gets a C-order little-endian copy."""
    given = tmp_path / "given.npy"
    np.save(given, array)
    assert runner_npy_problem(given) is None
    copy = runner_ready_input(given, tmp_path, 3)
    assert copy == tmp_path / "input3.npy"
    loaded = np.load(copy)
    assert loaded.flags.c_contiguous and loaded.dtype.str in ("<f4", "|f4")
    np.testing.assert_array_equal(loaded, array)


def test_an_input_the_runner_reads_as_it_is_is_not_copied(tmp_path: Path) -> None:
    given = tmp_path / "given.npy"
    np.save(given, np.ones((2, 3), np.float32))
    assert runner_ready_input(given, tmp_path, 0) == given
    assert sorted(p.name for p in tmp_path.iterdir()) == ["given.npy"]


def test_a_fortran_order_reference_compares_by_value(tmp_path: Path) -> None:
    values = np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    expected, actual = tmp_path / "e.npy", tmp_path / "a.npy"
    np.save(expected, np.asfortranarray(values))
    np.save(actual, values)
    check = check_output(expected, actual)
    assert check.problem is None and check.comparison is not None
    assert (check.comparison.scale, check.comparison.worst_error) == (6.0, 0.0)
    np.save(actual, values.T.copy().reshape(2, 3))  # the bytes of a Fortran file read as C
    assert compare_output(expected, actual) == (
        "a.npy: 4 of 6 values differ; largest at flat index 1: "
        "np.float32(4.0) vs expected np.float32(2.0)"
    )


def test_a_degenerate_reference_is_said_so(tmp_path: Path) -> None:
    """Issue 22, item 4: an all-zero reference, or one within the absolute tolerance of
    zero, matches a runner writing zeros: compared, but called degenerate."""
    expected, actual = tmp_path / "e.npy", tmp_path / "a.npy"
    np.save(actual, np.zeros(4, np.float32))
    for reference, detail in (
        (
            np.zeros(4, np.float32),
            "output 0 has no nonzero finite value: a runner writing zeros matches it",
        ),
        (
            np.full(4, 3e-9, np.float32),
            "output 0's largest value, 3e-09, is within the absolute tolerance 1e-05 of zero: "
            "a runner writing zeros matches it",
        ),
    ):
        np.save(expected, reference)
        check = check_output(expected, actual)
        assert check.problem is None and check.comparison is not None
        assert check.comparison.degenerate
        assert degenerate_detail(0, check.comparison) == detail
    np.save(expected, np.full(4, 3e-5, np.float32))
    assert compare_output(expected, actual) is not None  # a scale above the tolerance


def test_a_big_endian_reference_matches_the_runners_little_endian_output(tmp_path: Path) -> None:
    expected, actual = tmp_path / "e.npy", tmp_path / "a.npy"
    np.save(expected, np.array([1.5, -2.0], ">f4"))
    np.save(actual, np.array([1.5, -2.0], "<f4"))
    assert compare_output(expected, actual) is None
