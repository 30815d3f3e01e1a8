"""A copy of the repository in a scratch directory, and doit runs inside it.

Used by the end-to-end tests and the benchmarks, so neither touches the real `build/`.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COPIED = [
    "selective_build",  # the package; the four below are links into it, copied as links
    "codegen",
    "tasks",
    "runtime",
    "kernels",
    "examples",
    "benchmarks",
    "dodo.py",
    "selective.toml",
    "pyproject.toml",  # doit's configuration: the build database's plugin
    "cmake",  # the CMake module the wheel installs
]


def _not_copied(folder: str, names: list[str]) -> set[str]:
    """Caches, and the latency benchmark's git-ignored models (benchmarks/models/, ~90 MB
    once exported): no build reads them."""
    skipped = {"__pycache__"}
    if Path(folder) == REPO / "benchmarks":
        skipped.add("models")
    return skipped.intersection(names)


def copy_repository(destination: Path) -> Path:
    """Copy what a build reads into `destination` (which may already exist)."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = REPO / name
        if source.is_symlink():
            (destination / name).symlink_to(source.readlink())
        elif source.is_dir():
            shutil.copytree(source, destination / name, ignore=_not_copied)
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


def interrupted_line(signal_number: int) -> str:
    """All that a build stopped by `signal_number` writes to stderr (tasks/engine/signals.py)."""
    name = signal.Signals(signal_number).name
    return f"interrupted by {name}: finished tasks are saved, the next build goes on\n"


# The files under build/ that describe a build rather than make it: each holds file stamps
# (mtimes, inodes) or the folder's own path, so they differ between any two builds. Every
# other file must be the same, byte for byte and mode for mode, in every clean build.
ENGINE_FILES = frozenset(
    {
        ".doit.sqlite3",  # doit's database: the mtime of every file_dep when it was checked
        ".digests.json",  # the digest cache of tasks/engine/checker.py: by path and stat key
        ".up-to-date.json",  # the no-op stamp of tasks/engine/stamp.py: stamps, the folder's path
    }
)


def build_outputs(workdir: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under `workdir`/build but ENGINE_FILES: its permission bits and bytes."""
    build = workdir / "build"
    return {
        str(path.relative_to(build)): (path.stat().st_mode & 0o7777, path.read_bytes())
        for path in sorted(build.rglob("*"))
        if path.is_file() and str(path.relative_to(build)) not in ENGINE_FILES
    }


def differing(
    first: dict[str, tuple[int, bytes]], second: dict[str, tuple[int, bytes]]
) -> list[str]:
    """The paths present in one only, or with other bytes or modes (readable when it fails)."""
    return sorted(
        name for name in first.keys() | second.keys() if first.get(name) != second.get(name)
    )


def group_ends(group: int, timeout: float = 20) -> bool:
    """Whether every process of `group` is gone (killed workers are reaped by init)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


# Three targets of the default manifest, without its include-all target: the incremental
# and robustness tests build this many times, and every kernel at every dtype would cost
# minutes per build without telling them anything more.
SMALL_MANIFEST = "small.toml"

# Manifest sections that test manifests share, for a manifest in the repository root.
PORTABLE_LIBRARY = """
[libraries.portable]
functions = "kernels/portable/functions.yaml"
sources = "kernels/portable"
"""
ADD_MUL_MODEL = """
[models.add_mul]
path = "examples/models/add_mul/add_mul.pte"
inputs = ["examples/models/add_mul/in0.npy", "examples/models/add_mul/in1.npy"]
outputs = ["examples/models/add_mul/out0.npy"]
"""
# Both libraries, for a manifest written into build/ (build_in_repository).
BOTH_LIBRARIES_FROM_BUILD = """
[libraries.portable]
functions = "../kernels/portable/functions.yaml"
sources = "../kernels/portable"

[libraries.prim]
functions = "../kernels/prim/functions.yaml"
sources = "../kernels/prim"
"""

_SMALL_MANIFEST_TEXT = (
    PORTABLE_LIBRARY
    + ADD_MUL_MODEL
    + """
[models.mlp]
path = "examples/models/mlp/mlp.pte"
inputs = ["examples/models/mlp/in0.npy"]
outputs = ["examples/models/mlp/out0.npy"]

[targets.add_mul]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
size_budget = "24 KiB"

[targets.mlp]
models = ["mlp"]
libraries = ["portable"]
dtype_selective = true
size_budget = "40 KiB"

[targets.both]
models = ["add_mul", "mlp"]
libraries = ["portable"]
extra_ops = ["aten::add.out"]
dtype_selective = false
size_budget = "96 KiB"
"""
)


# One small target, for the tests that build many times in one folder (damaged outputs,
# killed builds, clean, a full disk): its build compiles about 25 objects.
ADD_MUL_MANIFEST = "add_mul.toml"
_ADD_MUL_MANIFEST_TEXT = (
    PORTABLE_LIBRARY
    + ADD_MUL_MODEL
    + """
[targets.add_mul]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
"""
)


def add_mul_workspace(destination: Path) -> Path:
    """A copy of the repository whose `add_mul.toml` holds the one target add_mul."""
    copy_repository(destination)
    (destination / ADD_MUL_MANIFEST).write_text(_ADD_MUL_MANIFEST_TEXT)
    return destination


def build_add_mul(workdir: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """`doit build` of the add_mul manifest in `workdir`."""
    return doit(workdir, f"manifest={ADD_MUL_MANIFEST}", *options, "build")


def small_workspace(destination: Path) -> Path:
    """A copy of the repository whose `small.toml` holds three small targets."""
    copy_repository(destination)
    (destination / SMALL_MANIFEST).write_text(_SMALL_MANIFEST_TEXT)
    return destination


def build_small(workdir: Path, *options: str) -> str:
    """`doit build` of the small manifest in `workdir`, which must succeed: its output."""
    result = doit(workdir, f"manifest={SMALL_MANIFEST}", *options, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def build_in_repository(manifest_name: str, manifest_text: str, target: str) -> Path:
    """Build `target` of a test manifest in the repository's own build/, incrementally
    across test sessions (a file lock serialises sessions that start at once): its runner.
    Each test manifest has a build folder of its own, build/.<manifest stem>/ (two
    manifests sharing one could overwrite or clean each other's outputs)."""
    build = REPO / "build"
    build.mkdir(exist_ok=True)
    manifest = build / manifest_name
    with (build / ".test-builds.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not manifest.exists() or manifest.read_text() != manifest_text:
            manifest.write_text(manifest_text)
        own = build / f".{manifest.stem}"
        result = doit(
            REPO,
            "-n",
            "2",
            f"manifest={manifest.relative_to(REPO)}",
            f"build={own.relative_to(REPO)}",
            "build",
            timeout=1800,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    return own / target / "runner"


# The end of a summary line whose every model was verified: `, 2/2 models verified (exact)`
# or `... (worst error 3e-08 of scale)` (codegen/verification.py).
_ALL_VERIFIED = re.compile(r", ([0-9]+)/\1 models verified \((exact|worst error \S+ of scale)\)$")


def all_verified(line: str, count: int) -> bool:
    """Whether the summary `line` says all its `count` models were verified."""
    match = _ALL_VERIFIED.search(line)
    return match is not None and int(match.group(1)) == count
