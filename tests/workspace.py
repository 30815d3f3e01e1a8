"""A copy of the repository in a scratch directory, and doit runs inside it.

Used by the end-to-end tests and the benchmarks, so neither touches the real `build/`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COPIED = [
    "codegen",
    "tasks",
    "runtime",
    "kernels",
    "examples",
    "benchmarks",
    "dodo.py",
    "selective.toml",
]


def copy_repository(destination: Path) -> Path:
    """Copy what a build reads into `destination` (which may already exist)."""
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(
                source, destination / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(source, destination / name)
    return destination


def doit(workdir: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "doit", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def executed(output: str) -> list[str]:
    """Tasks doit ran ('.  [n/N] name'), as opposed to skipped as up to date ('-- name')."""
    return [match.group(1) for match in _EXECUTED.finditer(output)]


_EXECUTED = re.compile(r"^\.  (?:\[\d+/\d+\] )?(\S+)$", re.MULTILINE)
