"""aten::hardsigmoid.out on portable: the cases it shares with the other MobileNetV3 activation
(tests/kernels/hard_cases.py)."""

from __future__ import annotations

import pytest

from tests.kernels.hard_cases import (
    HARDSIGMOID,
    Activation,
    hardsigmoid,
    test_bfloat16,
    test_errors_are_one_line,
    test_matches_numpy,
    test_refuses_integers_as_torch_does,
    test_zero_dim_empty_and_strided,
)

__all__ = [
    "test_matches_numpy",
    "test_zero_dim_empty_and_strided",
    "test_refuses_integers_as_torch_does",
    "test_errors_are_one_line",
    "test_bfloat16",
]


@pytest.fixture
def activation() -> Activation:
    return Activation(HARDSIGMOID, hardsigmoid)
