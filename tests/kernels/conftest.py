"""The include-all runner every kernel test runs on.

It is built by doit in the repository's own build/ (target `kernel_tests`), so a test run
recompiles only the kernels that changed since the last one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.executorch_install import executorch_installed, require_executorch
from tests.kernels.harness import KernelRunner
from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, build_in_repository

MANIFEST = (
    "# Written by tests/kernels/conftest.py: every kernel, for the kernel tests.\n"
    + BOTH_LIBRARIES_FROM_BUILD
    + """
[libraries.quantized]
functions = "../kernels/quantized/functions.yaml"
sources = "../kernels/quantized"

[targets.kernel_tests]
libraries = ["portable", "prim", "quantized"]
include_all_operators = true

# The optimized library first (every other kernel, and its dtypes it leaves out, from
# portable, prim and quantized), on one thread and on three (Note [Threads]).
[targets.kernel_tests_optimized]
libraries = ["optimized", "portable", "prim", "quantized"]
include_all_operators = true

[targets.kernel_tests_threads]
libraries = ["optimized", "portable", "prim", "quantized"]
include_all_operators = true
threads = 3

# The optimized library alone: a call its kernels do not take fails instead of quietly
# running portable's kernel (the optimized kernels' own tests).
[targets.kernel_tests_optimized_only]
libraries = ["optimized"]
include_all_operators = true
"""
)


# Every kernel on ExecuTorch's runtime (runtime = "executorch"): the same kernel objects as
# kernel_tests', registered with ExecuTorch's kernel ABI, with XNNPACK for the delegated
# examples and the user's library of examples/custom_ops. Only where ExecuTorch is installed
# (CI installs it): our runtime's targets never need it.
EXECUTORCH_TARGET = """
[libraries.my_ops]
functions = "../examples/custom_ops/custom_ops.yaml"
sources = "../examples/custom_ops"

[targets.kernel_tests_executorch]
libraries = ["portable", "prim", "quantized", "my_ops"]
include_all_operators = true
runtime = "executorch"
backends = ["XnnpackBackend"]
"""
if executorch_installed():
    MANIFEST += EXECUTORCH_TARGET


@pytest.fixture(scope="session")
def all_runner() -> Path:
    return build_in_repository("kernel-tests.toml", MANIFEST, "kernel_tests")


@pytest.fixture(scope="session")
def optimized_runner() -> Path:
    return build_in_repository("kernel-tests.toml", MANIFEST, "kernel_tests_optimized")


@pytest.fixture(scope="session")
def optimized_only_runner() -> Path:
    return build_in_repository("kernel-tests.toml", MANIFEST, "kernel_tests_optimized_only")


@pytest.fixture(scope="session")
def threaded_runner() -> Path:
    return build_in_repository("kernel-tests.toml", MANIFEST, "kernel_tests_threads")


@pytest.fixture(scope="session")
def executorch_runner() -> Path:
    require_executorch()
    return build_in_repository("kernel-tests.toml", MANIFEST, "kernel_tests_executorch")


@pytest.fixture
def kernel(all_runner: Path, tmp_path: Path) -> KernelRunner:
    return KernelRunner(all_runner, tmp_path)
