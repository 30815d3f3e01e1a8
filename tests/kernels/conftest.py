"""The include-all runner every kernel test runs on.

It is built by doit in the repository's own build/ (target `kernel_tests`), so a test run
recompiles only the kernels that changed since the last one. A file lock serialises test
sessions that start at the same time.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kernels.harness import KernelRunner
from tests.workspace import REPO

MANIFEST = """# Written by tests/kernels/conftest.py: every kernel, for the kernel tests.
[libraries.portable]
functions = "../kernels/portable/functions.yaml"
sources = "../kernels/portable"

[libraries.prim]
functions = "../kernels/prim/functions.yaml"
sources = "../kernels/prim"

[targets.kernel_tests]
libraries = ["portable", "prim"]
include_all_operators = true
"""


@pytest.fixture(scope="session")
def all_runner() -> Path:
    build = REPO / "build"
    build.mkdir(exist_ok=True)
    manifest = build / "kernel-tests.toml"
    with (build / ".kernel-tests.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not manifest.exists() or manifest.read_text() != MANIFEST:
            manifest.write_text(MANIFEST)
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "doit",
                "-n",
                "2",
                f"manifest={manifest.relative_to(REPO)}",
                "build",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    return build / "kernel_tests" / "runner"


@pytest.fixture
def kernel(all_runner: Path, tmp_path: Path) -> KernelRunner:
    return KernelRunner(all_runner, tmp_path)
