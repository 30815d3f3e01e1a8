"""Two clean builds in two folders give the same bytes, and the same permission bits, for
every file under build/ but ENGINE_FILES (tests/workspace.py): doit's database
(.doit.sqlite3) and the digest cache (.digests.json) hold the mtimes they saw, and the
no-op stamp (.up-to-date.json, written by plain `doit build` runs only) holds stamps and
the folder's path. The lock file (.doit.lock) is empty, so it is compared too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.workspace import build_outputs, copy_repository, differing

# Targets of the default manifest: the smallest runner, a two-layer network and symbolic
# shapes through the prim library; add_mul and mlp also build the all-operators baseline
# their size reports compare with. Codegen runs for every target of the manifest, so the
# generated files of all of them are compared too.
TARGETS = ("add_mul", "mlp", "dynamic")


def start_build(workdir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "doit", *(f"target:{name}" for name in TARGETS)],
        cwd=workdir,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def test_two_clean_builds_in_two_folders_are_identical(tmp_path: Path) -> None:
    # Folders of different names and depths: a path that leaks into an output shows.
    first = copy_repository(tmp_path / "first")
    second = copy_repository(tmp_path / "second-build" / "nested")
    builds = [start_build(first), start_build(second)]  # at once: two cores, half the time
    for build in builds:
        output, _ = build.communicate(timeout=1800)
        assert build.returncode == 0, output
    outputs = build_outputs(first)
    for target in TARGETS:  # what is compared is the build, not an empty folder
        assert f"{target}/runner" in outputs and f"{target}/obj/selected_kernels.d" in outputs
    assert "all-operators.host.portable/runner" in outputs
    assert len([name for name in outputs if name.endswith(".d")]) > 100
    assert differing(outputs, build_outputs(second)) == []
