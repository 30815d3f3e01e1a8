"""After a run that did not finish, the next clears what it left (Note [After an unfinished
run] in tasks/engine/recovery.py); a run that ends says so in the lock (tasks/engine/lock.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from selective_build.tasks.engine.lock import BuildLock


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def dead_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_run_that_ends_leaves_the_lock_empty(tmp_path: Path) -> None:
    lock = BuildLock()
    lock.hold()
    assert (tmp_path / "build" / ".doit.lock").read_text() == f"{os.getpid()}\n"
    lock.release()
    assert (tmp_path / "build" / ".doit.lock").read_text() == ""


def test_after_an_unfinished_run_its_temporaries_and_reports_go(tmp_path: Path) -> None:
    build = tmp_path / "build"
    (build / "add_mul").mkdir(parents=True)
    finished = build / "mlp" / "size.json"
    finished.parent.mkdir()
    finished.write_text("{}\n")  # a report of a run that finished, before the dead one
    dead = dead_pid()
    (build / ".doit.lock").write_text(f"{dead}\n")  # the dead run took the lock...
    os.utime(build / ".doit.lock", ns=(0, finished.stat().st_ctime_ns + 1))
    report = build / "add_mul" / "size.json"
    report.write_text("{}\n")  # ...and measured a runner
    litter = build / "add_mul" / f"runner.{dead}.tmp"
    litter.write_bytes(b"half")
    live = build / "add_mul" / f"runner.{os.getpid()}.tmp"
    live.write_bytes(b"being written")
    lock = BuildLock()
    lock.hold()
    assert not litter.exists() and not report.exists()
    assert live.exists() and finished.exists()
    lock.release()


def test_a_lock_removed_while_waited_on_is_taken_afresh(tmp_path: Path) -> None:
    """`clean` removes the lock file it holds; a build waiting on it must not then hold a
    lock nobody else can see."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from selective_build.tasks.engine.lock import BuildLock\n"
            "from selective_build.tasks import layout\n"
            "lock = BuildLock(); lock.hold(); print('held', flush=True); sys.stdin.readline()\n"
            "layout.lock_file().unlink(); lock.release()",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline() == "held\n"
    waiter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from selective_build.tasks.engine.lock import BuildLock; import os\n"
            "from selective_build.tasks import layout\n"
            "lock = BuildLock(); lock.hold()\n"
            "print(os.path.exists(layout.lock_file()))",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert waiter.stderr is not None
    assert waiter.stderr.readline() == "waiting for the other build using build/ to finish...\n"
    holder.stdin.write("\n")  # the holder removes the file, then releases it
    holder.stdin.close()
    holder.wait(timeout=60)
    out, err = waiter.communicate(timeout=60)
    assert (out, err) == ("True\n", "")
