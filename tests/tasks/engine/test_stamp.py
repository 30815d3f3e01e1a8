"""Which command lines the up-to-date stamp may answer, and its evidence of files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tasks.engine.stamp import _Evidence, plain_build_command


@pytest.mark.parametrize(
    "argv",
    [
        ["doit"],
        ["/usr/bin/doit", "build"],
        ["/venv/lib/python3.11/site-packages/doit/__main__.py", "run", "build"],
        ["doit", "manifest=other.toml", "build"],
        ["doit", "-n", "4", "build"],
    ],
)
def test_plain_builds(argv: list[str]) -> None:
    assert plain_build_command(argv)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["pytest", "build"],
        ["doit", "-a", "build"],
        ["doit", "build", "target:mlp"],
        ["doit", "list"],
        ["doit", "forget"],
        ["doit", "--db-file", "x", "build"],
        ["doit", "-n", "build"],
    ],
)
def test_other_commands(argv: list[str]) -> None:
    assert not plain_build_command(argv)


def test_a_file_seen_twice_unchanged_is_consistent_evidence(tmp_path: Path) -> None:
    evidence = _Evidence()
    path = tmp_path / "a"
    path.write_text("x")
    evidence.stat(str(path))
    evidence.stat(str(path))
    evidence.stat(str(tmp_path / "missing"))
    assert evidence.consistent
    assert evidence.stamps[str(tmp_path / "missing")] is None


def test_a_file_that_moves_while_checked_spoils_the_evidence(tmp_path: Path) -> None:
    evidence = _Evidence()
    path = tmp_path / "a"
    path.write_text("x")
    evidence.stat(str(path))
    os.utime(path, ns=(0, path.stat().st_mtime_ns + 1_000_000))
    evidence.stat(str(path))
    assert not evidence.consistent
