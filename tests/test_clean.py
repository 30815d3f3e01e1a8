"""`clean` waits for a running build and then leaves the build folder holding nothing the
build made, and everything it did not make (Note [Clean] in tasks/engine/clean.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workspace import ADD_MUL_MANIFEST, add_mul_workspace, build_add_mul, doit

# The installed command's entry point, run in the copy as a user runs it.
SELECTIVE_BUILD = "import sys; from selective_build.tasks.command import main; sys.exit(main())"


def files_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return add_mul_workspace(tmp_path_factory.mktemp("clean"))


def test_clean_during_a_build_waits_for_it(workdir: Path) -> None:
    build = subprocess.Popen(
        [sys.executable, "-m", "doit", f"manifest={ADD_MUL_MANIFEST}", "build"],
        cwd=workdir,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert build.stdout is not None
    for line in build.stdout:
        if "] compile:" in line:  # it has the lock and is writing objects
            break
    clean = doit(workdir, f"manifest={ADD_MUL_MANIFEST}", "clean")
    rest, errors = build.communicate(timeout=900)
    # The build's objects were not removed under it: it linked and verified.
    assert build.returncode == 0, rest + errors
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert clean.stderr == "waiting for the other build using build/ to finish...\n"
    assert not (workdir / "build").exists()


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "doit"], [sys.executable, "-c", SELECTIVE_BUILD]],
    ids=["doit", "selective-build"],
)
def test_clean_leaves_nothing_the_build_made(workdir: Path, command: list[str]) -> None:
    assert build_add_mul(workdir).returncode == 0
    build = workdir / "build"
    (build / "notes.txt").write_text("mine\n")
    (build / "mine").mkdir()
    (build / "mine" / "data.bin").write_bytes(b"\0")
    (build / "empty").mkdir()
    result = subprocess.run(
        [*command, f"manifest={ADD_MUL_MANIFEST}", "clean"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stdout + result.stderr
    assert files_under(build) == ["empty", "mine", "mine/data.bin", "notes.txt"]
    shutil.rmtree(build)  # the next test builds afresh
