"""Library-only targets (`runner = false`): built and packaged, never run, and measured by
what the library adds to a minimal app (Note [Library-only size], tasks/size.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.units import format_size
from tests.workspace import ADD_MUL_MODEL, PORTABLE_LIBRARY, copy_repository, doit

TARGET = "addlib"
MANIFEST = "lib.toml"


def manifest_text(budget: str) -> str:
    return (
        PORTABLE_LIBRARY
        + ADD_MUL_MODEL
        + f"""
[targets.{TARGET}]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
runner = false
size_budget = "{budget}"
"""
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A workspace where the library-only target was built: (its target folder, stdout)."""
    workdir = copy_repository(tmp_path_factory.mktemp("libonly"))
    (workdir / MANIFEST).write_text(manifest_text("64 KiB"))
    result = doit(workdir, "-n", "2", f"manifest={MANIFEST}", "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return workdir / "build" / TARGET, result.stdout


def berkeley(path: Path) -> tuple[int, int, int]:
    """text, data, bss as binutils' `size` prints them (not our own ELF reader)."""
    result = subprocess.run(["size", str(path)], capture_output=True, text=True, check=True)
    text, data, bss = result.stdout.splitlines()[1].split()[:3]
    return int(text), int(data), int(bss)


def test_no_runner_and_a_package(built: tuple[Path, str]) -> None:
    folder, _ = built
    assert not (folder / "runner").exists()
    assert not (folder / "runner.unstripped").exists()
    package = folder / "package"
    assert (package / "lib" / f"libselective_{TARGET}.a").stat().st_size > 0
    assert (package / "include" / "runtime" / "executor" / "method.h").is_file()
    assert (package / "include" / "selective" / "selected_op_variants.h").is_file()


def test_nothing_is_verified_and_the_summary_says_why(built: tuple[Path, str]) -> None:
    folder, stdout = built
    results = json.loads((folder / "verify.json").read_text())["models"]
    assert results == {
        "add_mul": {"status": "library only", "detail": "runner = false: nothing runs the models"}
    }
    assert not (folder / "verify").exists()  # no model was run
    line = next(line for line in stdout.splitlines() if line.startswith(f"{TARGET}: "))
    assert line.endswith("library only, not run")
    assert "library adds" in line


def test_size_is_the_measured_difference(built: tuple[Path, str]) -> None:
    folder, _ = built
    size = json.loads((folder / "size.json").read_text())
    with_app, without_app = (
        folder / "size_app" / "with_library",
        folder / "size_app" / "without_library",
    )
    assert size["library_only"] == {
        "with_library": with_app.stat().st_size,
        "without_library": without_app.stat().st_size,
    }
    assert size["file"] == with_app.stat().st_size - without_app.stat().st_size
    added = [a - b for a, b in zip(berkeley(with_app), berkeley(without_app), strict=True)]
    assert [size["text"], size["data"], size["bss"]] == added
    # The linker kept what an app running a program keeps: the loader, the executor and the
    # selected kernels, and the buckets add up to the difference.
    buckets = {bucket["name"]: bucket["bytes"] for bucket in size["buckets"]}
    for kept in ("loader", "executor", "registration", "kernel:portable/op_add"):
        assert buckets[kept] > 0, kept
    assert sum(buckets.values()) == size["file"]
    assert size["file"] > 4096
    for report in ("size.md", "size.html"):
        assert "Added to a minimal app (stripped):" in (folder / report).read_text()
    assert size["config"]["runner"] is False


def test_a_budget_too_small_fails_with_one_line(built: tuple[Path, str]) -> None:
    folder, _ = built
    workdir = folder.parent.parent
    added = json.loads((folder / "size.json").read_text())["file"]
    (workdir / MANIFEST).write_text(manifest_text("1 KiB"))
    try:
        result = doit(workdir, "-n", "2", f"manifest={MANIFEST}", "build")
    finally:
        (workdir / MANIFEST).write_text(manifest_text("64 KiB"))
    assert result.returncode != 0
    errors = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    over = added - 1024
    assert errors == [
        f"error: target {TARGET}: library (added to an app) is "
        f"{format_size(added)}, over its budget of 1.0 KiB (1,024 B) by {format_size(over)}"
    ]
    assert "Traceback" not in result.stdout + result.stderr
