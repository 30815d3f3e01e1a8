"""Fixtures for the engine's tests: the racy window of Note [Stat key] under the test's
control, never the machine's speed."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from selective_build.tasks.engine import stat_key

Settle = Callable[[Path], os.stat_result]


@pytest.fixture
def racy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key is taken as its file changes (however slow the machine is today)."""
    monkeypatch.setattr(stat_key, "_FINE_WINDOW_NS", 1 << 62)
    monkeypatch.setattr(stat_key, "_COARSE_WINDOW_NS", 1 << 62)


@pytest.fixture
def settle() -> Settle:
    """A file's status once its key is no longer racy (a few hundredths of a second: the
    test's files keep fractions of a second)."""

    def settled(path: Path) -> os.stat_result:
        while stat_key.racy(stat_key.key(status := path.stat())):
            time.sleep(0.01)
        return status

    return settled
