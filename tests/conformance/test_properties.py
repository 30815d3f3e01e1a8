"""The property checks of properties.py accept what they should and refuse the rest."""

from __future__ import annotations

import numpy as np

from tests.conformance.properties import check_property

RNG = np.random.default_rng(7)


def test_shape_compares_dtype_and_shape_only() -> None:
    want = np.zeros((2, 3), np.float32)
    assert check_property("shape", [], [np.full((2, 3), 9, np.float32)], [want], False) is None
    assert "shape" in str(
        check_property("shape", [], [np.zeros((3, 2), np.float32)], [want], False)
    )
    assert "dtype" in str(
        check_property("shape", [], [np.zeros((2, 3), np.float64)], [want], False)
    )


def test_uniform() -> None:
    good = RNG.random((40, 40)).astype(np.float32)
    want = np.zeros_like(good)
    assert check_property("uniform", [], [good], [want], False) is None
    assert "outside" in str(check_property("uniform", [], [good + 0.5], [want], False))
    assert "mean" in str(check_property("uniform", [], [good * 0.5], [want], False))


def test_normal() -> None:
    good = RNG.standard_normal((40, 40))
    want = np.zeros_like(good)
    assert check_property("normal", [], [good], [want], False) is None
    assert "std" in str(check_property("normal", [], [good * 2], [want], False))
    assert "finite" in str(
        check_property("normal", [], [np.where(good > 2, np.inf, good)], [want], False)
    )


def test_dropout() -> None:
    x = RNG.random((40, 40)).astype(np.float32) + 1
    torch_mask = RNG.random(x.shape) >= 0.5
    torch_out = np.where(torch_mask, x * 2, 0).astype(np.float32)
    mask = RNG.random(x.shape) >= 0.5
    ours = np.where(mask, x * 2, 0).astype(np.float32)
    expected = [torch_out, torch_mask]
    assert check_property("dropout", [x], [ours, mask], expected, False) is None
    unscaled = np.where(mask, x, 0).astype(np.float32)
    assert "scaled" in str(check_property("dropout", [x], [unscaled, mask], expected, False))
    keep_all = np.ones_like(mask)
    kept = check_property("dropout", [x], [x * 2, keep_all], expected, False)
    assert "kept fraction" in str(kept)
