"""Shared fixtures: the repository root and its example models."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

# Tests interrupt builds with Ctrl-C as a terminal would. A test run started in the
# background (as CI may start it) inherits Ctrl-C ignored and passes that on to every build
# it starts, which would then ignore the test's Ctrl-C (Note [Interrupted commands] in
# tasks/engine/actions.py): give the children the terminal's default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_MODELS = REPO / "examples" / "models"


@pytest.fixture
def repo() -> Path:
    return REPO


def example_pte(name: str) -> Path:
    return EXAMPLE_MODELS / name / f"{name}.pte"
