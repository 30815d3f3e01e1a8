"""A bad reference output is one line naming the file, never a traceback (issue 13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codegen.verify import compare_output, runner_npy_problem


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
        ("text", "not a valid .npy file"),
        (
            "object",
            "not a valid .npy file (Object arrays cannot be loaded when allow_pickle=False)",
        ),
        ("truncated", "not a valid .npy file"),
        ("truncated header", "not a valid .npy file"),
        ("npz", "is an .npz archive, not one .npy array"),
        ("directory", "is a directory"),
        ("empty", "not a valid .npy file"),
    ],
)
def test_bad_reference_is_one_line_naming_it(tmp_path: Path, kind: str, problem: str) -> None:
    expected = _reference(tmp_path, kind)
    actual = tmp_path / "output0.npy"
    np.save(actual, np.zeros(3, np.float32))
    message = compare_output(expected, actual)
    assert message is not None
    assert message.startswith(f"reference {expected}: {problem}")
    assert "\n" not in message


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
        (np.zeros(3, ">f4"), "a big-endian float32 array: the runner reads little-endian ones"),
        (
            np.asfortranarray(np.zeros((2, 3), np.float32)),
            "a Fortran-order array: the runner reads C order (numpy.ascontiguousarray)",
        ),
        (
            np.zeros((0, 2), np.uint64),
            "uint64 arrays are not supported by the runner (bool, "
            "uint8, int8, int16, int32, int64, float16, float32, float64 and complex64 are)",
        ),
    ],
    ids=["complex128", "big-endian", "fortran", "uint64"],
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
