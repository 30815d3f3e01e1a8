"""A build stopped by Ctrl-C, SIGTERM or SIGHUP ends in one line, leaves no temporary and no
process behind, and the next build completes it with the bytes of an uninterrupted one
(Note [Stop signals] in tasks/engine/signals.py, Note [Interrupted commands] in
tasks/engine/actions.py)."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workspace import (
    SMALL_MANIFEST,
    build_outputs,
    build_small,
    differing,
    group_ends,
    interrupted_line,
    small_workspace,
)

# The stage a build is in when it is stopped: the first task of that stage has started.
MOMENTS = ("codegen", "compile", "link")

# Each chain stops three builds of one folder in a row, the first while codegen runs, the
# next (which goes on from what the first saved) while it compiles, the third while it
# links; then a fourth completes the build. Each chain gives the moments other signals:
# the three together stop every signal at every moment, for the cost of three builds.
CHAINS = {
    "INT-TERM-HUP": (signal.SIGINT, signal.SIGTERM, signal.SIGHUP),
    "TERM-HUP-INT": (signal.SIGTERM, signal.SIGHUP, signal.SIGINT),
    "HUP-INT-TERM": (signal.SIGHUP, signal.SIGINT, signal.SIGTERM),
}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, bytes]]:
    workdir = small_workspace(tmp_path_factory.mktemp("uninterrupted"))
    build_small(workdir)
    return build_outputs(workdir)


def start_build(workdir: Path) -> subprocess.Popen[str]:
    """`doit build` of the small manifest in its own session, its output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "doit", f"manifest={SMALL_MANIFEST}", "build"],
        cwd=workdir,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def start_build_until(workdir: Path, moment: str) -> subprocess.Popen[str]:
    """A build, once a task of stage `moment` has started."""
    build = start_build(workdir)
    assert build.stdout is not None
    seen = []
    for line in build.stdout:  # the reporter writes each task's line as the task starts
        seen.append(line)
        if f"] {moment}:" in line:
            return build
    pytest.fail(f"the build ended before {moment} started: {''.join(seen)}")


def send(build: subprocess.Popen[str], signal_number: int) -> None:
    """`kill PID` reaches doit alone; a terminal sends Ctrl-C and its hangup to the whole
    foreground process group."""
    if signal_number == signal.SIGTERM:
        build.send_signal(signal_number)
    else:
        os.killpg(build.pid, signal_number)


def stop_build_at(workdir: Path, moment: str, signal_number: int) -> None:
    """Send a build `signal_number` once a task of stage `moment` has started, and check
    how it ended."""
    build = start_build_until(workdir, moment)
    send(build, signal_number)
    _, stderr = build.communicate(timeout=300)
    assert build.returncode == -signal_number, stderr
    assert stderr == interrupted_line(signal_number)
    assert group_ends(build.pid), "a process of the stopped build is still running"
    assert not list((workdir / "build").rglob("*.tmp")), "a temporary was left behind"


@pytest.mark.parametrize("chain", CHAINS)
def test_a_stopped_build_ends_in_one_line_and_the_next_completes_it(
    tmp_path: Path, uninterrupted: dict[str, tuple[int, bytes]], chain: str
) -> None:
    workdir = small_workspace(tmp_path)
    for moment, signal_number in zip(MOMENTS, CHAINS[chain], strict=True):
        stop_build_at(workdir, moment, signal_number)
    build_small(workdir)
    assert differing(build_outputs(workdir), uninterrupted) == []


def test_a_hangup_with_the_terminal_gone_still_ends_by_the_signal(tmp_path: Path) -> None:
    """The one line cannot be written (the terminal closed, here a pipe nobody reads): the
    build still ends by SIGHUP, not by an error in the excepthook."""
    workdir = small_workspace(tmp_path)
    build = start_build_until(workdir, "compile")
    assert build.stderr is not None
    build.stderr.close()
    send(build, signal.SIGHUP)
    build.wait(timeout=300)
    assert build.returncode == -signal.SIGHUP
    assert not list((workdir / "build").rglob("*.tmp")), "a temporary was left behind"


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_build_waiting_for_another_stops_in_one_line(tmp_path: Path, signal_number: int) -> None:
    """Stopped while it waits for the build lock another build holds (Ctrl-C was a
    traceback from fcntl.flock, SIGTERM and SIGHUP ended it without a word)."""
    workdir = small_workspace(tmp_path)
    (workdir / "build").mkdir()
    with (workdir / "build" / ".doit.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build = start_build(workdir)
        assert build.stderr is not None
        waiting = build.stderr.readline()
        assert waiting == "waiting for the other build using build/ to finish...\n"
        send(build, signal_number)
        _, stderr = build.communicate(timeout=300)
    assert build.returncode == -signal_number, stderr
    assert stderr == interrupted_line(signal_number)
