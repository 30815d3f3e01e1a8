"""The one tolerance table, as verification and the conformance tests read it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from codegen.tolerances import TOLERANCES, mismatches, tolerance
from codegen.verify import compare_output
from tests.conformance.tolerances import compare


def test_every_floating_dtype_has_a_row_and_the_rest_are_exact() -> None:
    assert set(TOLERANCES) == {"float16", "bfloat16", "float32", "float64"}
    # Coarser significands get looser bounds.
    assert TOLERANCES["float64"] < TOLERANCES["float32"] < TOLERANCES["float16"]
    assert TOLERANCES["float16"][1] < TOLERANCES["bfloat16"][1]
    for name in ("bool", "uint8", "int32", "int64"):
        assert tolerance(name) == (0.0, 0.0)


def test_bfloat16_row_only_for_values_computed_in_bfloat16() -> None:
    assert tolerance("float32") == TOLERANCES["float32"]
    assert tolerance("float32", computed_in_bfloat16=True) == TOLERANCES["bfloat16"]
    assert tolerance("int64", computed_in_bfloat16=True) == (0.0, 0.0)


def test_large_int64_values_one_apart_differ() -> None:
    # float64 cannot tell 2^62 from 2^62 + 1: a float comparison would pass them.
    expected = np.array([2**62, 5], np.int64)
    actual = np.array([2**62 + 1, 5], np.int64)
    assert mismatches(actual, expected, 0.0, 0.0).tolist() == [True, False]


def test_bool_and_nan() -> None:
    assert mismatches(np.array([True, False]), np.array([True, True]), 0.0, 0.0).tolist() == [
        False,
        True,
    ]
    nan = np.array([np.nan, 1.0], np.float32)
    assert not mismatches(nan, nan.copy(), *tolerance("float32")).any()


def test_verification_and_conformance_agree(tmp_path: Path) -> None:
    """One float32 value just inside and one just outside the bound: both judges agree."""
    atol, rtol = TOLERANCES["float32"]
    expected = np.array([1.0, 1.0], np.float32)
    inside = np.array([1.0 + 0.5 * (atol + rtol), 1.0], np.float32)
    outside = np.array([1.0, 1.0 + 4 * (atol + rtol)], np.float32)
    reference = tmp_path / "expected.npy"
    np.save(reference, expected)
    for actual, passes in ((inside, True), (outside, False)):
        path = tmp_path / "output0.npy"
        np.save(path, actual)
        assert (compare_output(reference, path) is None) is passes
        assert (compare(0, actual, expected, computed_in_bfloat16=False) is None) is passes
    # A BFloat16 program's float32 output is held to the BFloat16 row instead.
    assert compare(0, outside, expected, computed_in_bfloat16=True) is None
