"""`doit list`, `help` and `info` neither wait for a running build nor write into build/
(the lock and build/ are taken when a run builds: Note [One run, from the loader] in
tasks/engine/loader.py; the database is created when a run first saves:
tasks/engine/database.py)."""

from __future__ import annotations

import fcntl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.workspace import copy_repository, doit

# The installed command's entry point, run in the copy as a user runs it.
SELECTIVE_BUILD = "import sys; from selective_build.tasks.command import main; sys.exit(main())"

# A child process holding the build lock through the engine's own lock, as a build does,
# until its stdin closes.
HOLDER = """
import sys
from selective_build.tasks.engine.lock import BuildLock
lock = BuildLock()
lock.hold()
print("held", flush=True)
sys.stdin.read()
"""


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


@pytest.fixture
def locked_copy(tmp_path: Path) -> Iterator[Path]:
    """A copy of the repository whose build lock another process holds."""
    workdir = copy_repository(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        cwd=workdir,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline() == "held\n"
        yield workdir
    finally:
        holder.stdin.close()
        holder.wait(timeout=300)


def test_both_commands_list_while_another_process_holds_the_lock(locked_copy: Path) -> None:
    listed = doit(locked_copy, "list", timeout=300)
    installed = subprocess.run(
        [sys.executable, "-c", SELECTIVE_BUILD, "list"],
        cwd=locked_copy,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    for result in (listed, installed):
        assert result.returncode == 0 and "build" in result.stdout.split(), result.stderr
        assert "waiting for the other build" not in result.stderr
