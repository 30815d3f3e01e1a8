"""The runners the optimized kernels' tests compare: every optimized kernel, built at -O2 as
the library is meant to run, beside the portable include-all runner of tests/kernels.

The optimized runner lists only the optimized library, so a call its kernels do not take
fails instead of quietly running portable's kernel.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernels.harness import KernelRunner
from tests.workspace import build_in_repository

MANIFEST = """# Written by tests/kernels/optimized/conftest.py: every optimized kernel at -O2.
[toolchains.opt]
compiler = "c++"
cflags = ["-O2"]
strip = "strip"

[libraries.optimized]
functions = "../kernels/optimized/functions.yaml"
sources = "../kernels/optimized"

[targets.kernel_tests_optimized]
libraries = ["optimized"]
include_all_operators = true
toolchain = "opt"
"""


@pytest.fixture(scope="session")
def optimized_runner() -> Path:
    return build_in_repository("kernel-tests-optimized.toml", MANIFEST, "kernel_tests_optimized")


@pytest.fixture
def optimized(optimized_runner: Path, tmp_path: Path) -> KernelRunner:
    scratch = tmp_path / "optimized"
    scratch.mkdir()
    return KernelRunner(optimized_runner, scratch)
