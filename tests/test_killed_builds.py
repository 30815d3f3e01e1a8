"""A build killed with SIGKILL at any moment saves nothing; the next build goes on and ends
with every output byte for byte as a clean build's, temporaries included (Note [After an
unfinished run] in tasks/engine/recovery.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.workspace import (
    ADD_MUL_MANIFEST,
    add_mul_workspace,
    build_add_mul,
    build_outputs,
    differing,
    executed,
    group_ends,
)

TASKS = 30  # in a build of the add_mul manifest
SIZE_DONE = 28  # from this task on, the size report is written (a history file)


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, bytes]]:
    workdir = add_mul_workspace(tmp_path_factory.mktemp("clean"))
    assert build_add_mul(workdir).returncode == 0
    return build_outputs(workdir)


def kill_after(workdir: Path, tasks: int, delay: float) -> None:
    """Start a build; SIGKILL its process group `delay` seconds after its `tasks`-th task
    started (or once it ended, if it ends before). Compilers, in sessions of their own,
    are left running, as a killed build leaves them."""
    build = subprocess.Popen(
        [sys.executable, "-m", "doit", f"manifest={ADD_MUL_MANIFEST}", "build"],
        cwd=workdir,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert build.stdout is not None
    started = 0
    for line in build.stdout:  # the reporter writes each task's line as the task starts
        started += len(executed(line))
        if started == tasks:
            time.sleep(delay)
            break
    os.killpg(build.pid, signal.SIGKILL)
    build.wait(timeout=60)
    assert group_ends(build.pid)


def processes_in(folder: Path) -> list[int]:
    """The processes working in `folder` (what a killed build left running)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            if name.isdigit() and os.readlink(f"/proc/{name}/cwd") == str(folder):
                found.append(int(name))
        except OSError:  # gone meanwhile, or not ours to look at
            pass
    return found


def wait_until_none_run_in(folder: Path, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while processes_in(folder):
        assert time.monotonic() < deadline, f"still running in {folder}: {processes_in(folder)}"
        time.sleep(0.1)


def test_a_build_killed_at_random_moments_ends_as_a_clean_build(
    tmp_path: Path, clean_build: dict[str, tuple[int, bytes]]
) -> None:
    seed = random.randrange(1 << 32)
    chosen = random.Random(seed)
    # Each build goes on from the last (which saved nothing); one is killed once its size
    # report is written, the history a later build must not read.
    moments = [chosen.randint(1, TASKS) for _ in range(3)] + [chosen.randint(SIZE_DONE, TASKS)]
    chosen.shuffle(moments)
    delays = [chosen.uniform(0, 0.3) for _ in moments]
    workdir = add_mul_workspace(tmp_path)
    for tasks, delay in zip(moments, delays, strict=True):
        kill_after(workdir, tasks, delay)
    # Else a compile the last build left running could land its temporary after the next
    # build ended; a build sweeps only once it holds the lock.
    wait_until_none_run_in(workdir)
    result = build_add_mul(workdir)
    assert result.returncode == 0, result.stdout + result.stderr
    killed_at = f"killed after tasks {moments}, {[round(d, 3) for d in delays]} s (seed {seed})"
    assert differing(build_outputs(workdir), clean_build) == [], killed_at
