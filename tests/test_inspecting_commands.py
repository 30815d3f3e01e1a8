"""`doit list`, `help` and `info` neither wait for a running build nor write into build/
(the lock and build/ are taken when a run starts: tasks/engine/reporter.py,
tasks/engine/database.py)."""

from __future__ import annotations

import fcntl
from pathlib import Path

from tests.workspace import copy_repository, doit


def test_inspecting_commands_write_nothing_in_a_fresh_copy(tmp_path: Path) -> None:
    workdir = copy_repository(tmp_path)
    for command in (["list"], ["help"], ["info", "build"], ["list", "--status"]):
        result = doit(workdir, *command, timeout=300)
        # `info` exits 1 for a task that is not up to date.
        assert result.returncode in (0, 1) and not result.stderr, result.stdout + result.stderr
    assert not (workdir / "build").exists()


def test_list_returns_while_a_build_holds_the_lock(tmp_path: Path) -> None:
    workdir = copy_repository(tmp_path)
    (workdir / "build").mkdir()
    with (workdir / "build" / ".doit.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a running build holds it
        for command in (["list"], ["info", "build"]):
            result = doit(workdir, *command, timeout=300)
            assert result.returncode in (0, 1) and "build" in result.stdout, result.stderr
            assert "waiting for the other build" not in result.stderr
