from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen import writer
from codegen.writer import write_if_changed


@pytest.fixture
def umask() -> Iterator[None]:
    """Restore the process umask (and the writer's cached copy) after the test."""
    saved = os.umask(0o022)
    os.umask(saved)
    yield
    os.umask(saved)
    writer._umask.cache_clear()


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_outputs_get_the_mode_the_umask_gives(
    tmp_path: Path, umask: None, mask: int, mode: int
) -> None:
    os.umask(mask)
    writer._umask.cache_clear()
    path = tmp_path / "out" / "selected_operators.yaml"
    assert write_if_changed(path, "a: 1\n")
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert path.read_text() == "a: 1\n"
    assert not write_if_changed(path, "a: 1\n")  # unchanged: untouched
    assert [p.name for p in path.parent.iterdir()] == ["selected_operators.yaml"]
