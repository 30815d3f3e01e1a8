"""Shared fixtures: the repository root and its example models."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_MODELS = REPO / "examples" / "models"


@pytest.fixture
def repo() -> Path:
    return REPO


def example_pte(name: str) -> Path:
    return EXAMPLE_MODELS / name / f"{name}.pte"
