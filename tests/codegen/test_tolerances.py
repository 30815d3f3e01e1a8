"""The one tolerance table, as verification and the conformance tests read it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from selective_build.codegen.tolerances import (
    TOLERANCES,
    compare_to_reference,
    mismatches,
    tolerance,
)
from selective_build.codegen.verify import compare_output
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


def test_outputs_are_compared_relative_to_their_scale() -> None:
    """Issue 22, item 4: values near 5e-5 10 % off passed the absolute bound (1e-5); values
    near 1e4 failed it by a cancellation error their magnitude explains."""
    small = np.array([4e-5, -5e-5, 2e-5], np.float32)
    assert not mismatches(small * 1.1, small, *TOLERANCES["float32"]).any()
    comparison = compare_to_reference(small * np.float32(1.1), small)
    assert (comparison.wrong, comparison.first_wrong, comparison.farthest_wrong) == (3, 0, 1)
    assert comparison.scale == float(np.float32(5e-5)) and not comparison.degenerate
    assert abs(comparison.relative_error - 0.1) < 1e-6

    large = np.array([1e4, 1e-3], np.float32)
    cancelled = np.array([1e4, 4e-3], np.float32)
    assert mismatches(cancelled, large, *TOLERANCES["float32"]).tolist() == [False, True]
    comparison = compare_to_reference(cancelled, large)
    assert comparison.wrong == 0
    assert abs(comparison.worst_error - 3e-3) < 1e-9


def test_a_degenerate_reference_is_compared_by_the_absolute_bound() -> None:
    zeros = np.zeros(3, np.float32)
    noise = np.array([0.0, 4e-6, -9e-6], np.float32)  # rounding noise, within 1e-5
    comparison = compare_to_reference(noise, zeros)
    assert comparison.degenerate and comparison.wrong == 0 and comparison.scale == 0
    assert compare_to_reference(np.array([0, 0, 2e-5], np.float32), zeros).wrong == 1
    for exact in (np.zeros(3, np.int64), np.zeros(2, np.bool_)):
        assert compare_to_reference(exact, exact).degenerate
    assert not compare_to_reference(np.ones(2, np.bool_), np.ones(2, np.bool_)).degenerate


def test_not_finite_values_and_blocks() -> None:
    expected = np.zeros(600_000, np.float64)
    expected[0], expected[1], expected[2] = np.inf, np.nan, 2.0
    actual = expected.copy()
    assert compare_to_reference(actual, expected).wrong == 0  # inf = inf, NaN = NaN
    actual[1], actual[500_000] = 1.0, 1.5  # a NaN met by a number; a value in a later block
    comparison = compare_to_reference(actual, expected)
    assert (comparison.wrong, comparison.first_wrong, comparison.farthest_wrong) == (2, 1, 1)
    assert comparison.scale == 2.0 and comparison.worst_error == np.inf
    actual[1] = np.nan
    comparison = compare_to_reference(actual, expected)
    assert (comparison.farthest_wrong, comparison.worst_error) == (500_000, 1.5)
