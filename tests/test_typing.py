"""`mypy --strict` on the package, codegen/ and tasks/ (DESIGN principle 9), in the test run."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "selective_build"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
