"""Parallel, interrupted and concurrent builds give the same bytes as a serial one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.workspace import (
    SMALL_MANIFEST,
    build_small,
    group_ends,
    interrupted_line,
    small_workspace,
)

TARGETS = ("add_mul", "mlp", "both")


def outputs(workdir: Path) -> dict[str, bytes]:
    """The bytes of every deliverable of every target (paths relative to build/)."""
    build = workdir / "build"
    files = {}
    for target in TARGETS:
        for name in (
            "runner",
            "selected_operators.yaml",
            "size.json",
            "verify.json",
            "gen/selected_kernels.cpp",
            "gen/selected_op_variants.h",
            "gen/selected_registry_size.h",
        ):
            files[f"{target}/{name}"] = (build / target / name).read_bytes()
    return files


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    workdir = small_workspace(tmp_path_factory.mktemp("serial"))
    build_small(workdir)
    return outputs(workdir)


def start_build(workdir: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "doit", *args, f"manifest={SMALL_MANIFEST}", "build"],
        cwd=workdir,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def wait_for_objects(workdir: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while len(list((workdir / "build").rglob("*.o"))) < count:
        assert time.monotonic() < deadline, "the build compiled nothing"
        time.sleep(0.05)


def test_parallel_build_equals_serial(tmp_path: Path, serial: dict[str, bytes]) -> None:
    workdir = small_workspace(tmp_path)
    build_small(workdir, "-n", "2")
    assert outputs(workdir) == serial


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_interrupted_build_recovers(
    tmp_path: Path, serial: dict[str, bytes], signal_number: int
) -> None:
    workdir = small_workspace(tmp_path)
    build = start_build(workdir, "-n", "2")
    wait_for_objects(workdir, 3)
    assert build.poll() is None, "the build finished before it could be interrupted"
    # Ctrl-C and SIGKILL (a terminal, a CI timeout) reach the whole process group;
    # SIGTERM (`kill PID`) reaches doit alone, which must stop its workers itself.
    if signal_number == signal.SIGTERM:
        build.send_signal(signal_number)
    else:
        os.killpg(build.pid, signal_number)
    _, stderr = build.communicate(timeout=120)
    assert build.returncode == -signal_number, f"the build was not interrupted: {stderr}"
    if signal_number != signal.SIGKILL:  # with its workers, one line (Note [Stop signals])
        assert stderr == interrupted_line(signal_number)
    assert group_ends(build.pid), "a doit worker outlived the interrupted build"
    assert not list((workdir / "build").rglob("*.tmp")) or signal_number == signal.SIGKILL
    build_small(workdir)
    assert outputs(workdir) == serial


def test_concurrent_builds_do_not_collide(tmp_path: Path, serial: dict[str, bytes]) -> None:
    workdir = small_workspace(tmp_path)
    first, second = start_build(workdir), start_build(workdir, "-n", "2")
    for build in (first, second):
        _, stderr = build.communicate(timeout=900)
        assert build.returncode == 0, stderr
    assert outputs(workdir) == serial
    assert ".  " not in build_small(workdir)
