"""The ExecuTorch install tests of `runtime = "executorch"` targets build against.

CI installs ExecuTorch (.ci/run: torch==2.13.0, then executorch==1.5.1) and sets
SELECTIVE_BUILD_REQUIRE_EXECUTORCH=1, so there a missing install fails these tests; a
developer's virtualenv without it skips them, saying what to install. Our own runtime's
tests never need it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.executorch.install import ExecutorchInstall, find_executorch


def executorch_installed() -> bool:
    """Whether the build's Python has an ExecuTorch install the build supports."""
    try:
        find_executorch(None, "executorch")
    except InputError:
        return False
    return True


def require_executorch() -> ExecutorchInstall:
    try:
        return find_executorch(None, "executorch")
    except InputError as error:
        if os.environ.get("SELECTIVE_BUILD_REQUIRE_EXECUTORCH") == "1":
            pytest.fail(str(error), pytrace=False)
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def executorch_install() -> ExecutorchInstall:
    return require_executorch()


# Where .ci/run unpacks the aarch64 wheel of the supported release (a cross target's install).
AARCH64_INSTALL = "SELECTIVE_BUILD_EXECUTORCH_AARCH64"


def require_aarch64_executorch() -> Path:
    """The aarch64 install .ci/run unpacked (its executorch/ folder)."""
    folder = os.environ.get(AARCH64_INSTALL)
    if folder:
        return Path(folder)
    message = (
        f"{AARCH64_INSTALL} names no aarch64 ExecuTorch install (.ci/run unpacks "
        "executorch==1.5.1's manylinux_2_28_aarch64 wheel and sets it)"
    )
    if os.environ.get("SELECTIVE_BUILD_REQUIRE_EXECUTORCH") == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
