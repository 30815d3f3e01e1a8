from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from selective_build.codegen.writer import temporary, write_if_changed


@pytest.fixture
def umask() -> Iterator[None]:
    """Restore the process umask after the test."""
    saved = os.umask(0o022)
    os.umask(saved)
    yield
    os.umask(saved)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_outputs_get_the_mode_the_umask_gives(
    tmp_path: Path, umask: None, mask: int, mode: int
) -> None:
    os.umask(mask)
    path = tmp_path / "out" / "selected_operators.yaml"
    assert write_if_changed(path, "a: 1\n")
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert path.read_text() == "a: 1\n"
    assert not write_if_changed(path, "a: 1\n")  # unchanged: untouched
    assert [p.name for p in path.parent.iterdir()] == ["selected_operators.yaml"]


def test_a_write_that_fails_leaves_neither_half_a_file_nor_its_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "size.json"
    path.write_text("old\n")

    def full(source: object, destination: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OSError):
        write_if_changed(path, "new\n")
    assert path.read_text() == "old\n" and not temporary(path).exists()


def test_the_temporary_names_the_process(tmp_path: Path) -> None:
    assert temporary(tmp_path / "runner").name == f"runner.{os.getpid()}.tmp"
