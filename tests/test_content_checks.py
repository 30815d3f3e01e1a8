"""What a build calls up to date is what the sources make: an edit that keeps a file's size
and mtime is built (Note [Stat key] in tasks/engine/stat_key.py), and an output changed
after it was made is made again (tasks/engine/outputs.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.workspace import (
    ADD_MUL_MANIFEST,
    add_mul_workspace,
    build_add_mul,
    build_outputs,
    differing,
    doit,
    executed,
)

SOURCE = Path("kernels/portable/op_add.cpp")
# The same number of bytes; add_mul's output changes (self - alpha * other).
EDIT = ("binary_alpha_kernel<Dtypes, Add>", "binary_alpha_kernel<Dtypes, Sub>")
OBJECT = "build/add_mul/obj/kernels/portable/op_add.o"
SIZE = ("html", "json", "md")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = add_mul_workspace(tmp_path_factory.mktemp("content"))
    assert build_add_mul(workdir).returncode == 0
    return workdir


def settle(workdir: Path) -> dict[str, tuple[int, bytes]]:
    """Every output, once the next build is a no-op the stamp answers (Note [Up-to-date
    stamp])."""
    build_add_mul(workdir)
    result = build_add_mul(workdir)
    assert result.stdout.startswith("nothing to do:"), result.stdout + result.stderr
    return build_outputs(workdir)


def rebuilt(workdir: Path) -> list[str]:
    """The tasks a build that must succeed ran."""
    result = build_add_mul(workdir)
    assert result.returncode == 0, result.stdout + result.stderr
    return executed(result.stdout)


def copy_with_mtime(source: Path, text: str, scratch: Path) -> None:
    """Write `text` elsewhere, give it `source`'s mtime, and `cp -p` it over `source`."""
    edited = scratch / source.name
    edited.write_text(text)
    subprocess.run(["touch", "-r", str(source), str(edited)], check=True)
    subprocess.run(["cp", "-p", str(edited), str(source)], check=True)


def edit_then_touch(source: Path, text: str, scratch: Path) -> None:
    """Edit `source` in place, then put its old mtime back with `touch -r`."""
    reference = scratch / "reference"
    subprocess.run(["cp", "-p", str(source), str(reference)], check=True)
    source.write_text(text)
    subprocess.run(["touch", "-r", str(reference), str(source)], check=True)


@pytest.mark.parametrize("restore", [copy_with_mtime, edit_then_touch], ids=["cp -p", "touch -r"])
def test_an_edit_keeping_size_and_mtime_is_built(
    workdir: Path, tmp_path: Path, restore: Callable[[Path, str, Path], None]
) -> None:
    built = settle(workdir)
    source = workdir / SOURCE
    original, before = source.read_text(), source.stat()
    assert original.count(EDIT[0]) == 1, f"{SOURCE} no longer holds {EDIT[0]!r}: pick another edit"
    restore(source, original.replace(*EDIT), tmp_path)
    after = source.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)

    result = build_add_mul(workdir)
    assert {f"compile:{OBJECT}", "link:add_mul"} <= set(executed(result.stdout)), result.stdout
    # The new runner computes what the edited source says, and verification sees it.
    assert result.returncode == 1 and "failed: verify:add_mul" in result.stdout
    again = build_add_mul(workdir)
    assert again.returncode == 1 and "nothing to do" not in again.stdout

    restore(source, original, tmp_path)
    assert {f"compile:{OBJECT}", "link:add_mul"} <= set(rebuilt(workdir))
    # Not the size report, which says what changed since the last build (the edited one).
    changed = differing(build_outputs(workdir), built)
    assert set(changed) <= {f"add_mul/size.{kind}" for kind in SIZE}, changed


def overwrite_middle(path: Path, data: bytes) -> None:
    """`data` written over the middle of `path`, its size kept."""
    with path.open("r+b") as file:
        file.seek(path.stat().st_size // 2)
        file.write(data)


def test_an_object_written_into_is_compiled_again(workdir: Path) -> None:
    built = settle(workdir)
    shared = sorted((workdir / "build" / ".obj").rglob("tensor.o"))[0]
    overwrite_middle(shared, b"\xff" * 7)
    task = f"compile:{shared.relative_to(workdir)}"
    ran = rebuilt(workdir)
    assert task in ran, ran
    assert differing(build_outputs(workdir), built) == []


def test_a_truncated_runner_is_linked_again(workdir: Path) -> None:
    built = settle(workdir)
    runner = workdir / "build" / "add_mul" / "runner"
    runner.write_bytes(runner.read_bytes()[:4096])
    assert "link:add_mul" in rebuilt(workdir)
    assert differing(build_outputs(workdir), built) == []


@pytest.mark.parametrize(
    ("name", "task"),
    [
        ("selection.json", "selection:add_mul"),
        ("resolution.json", "codegen:add_mul"),
        ("verify.json", "verify:add_mul"),
        ("size.json", "size:add_mul"),
    ],
)
def test_a_damaged_stage_file_is_written_again(workdir: Path, name: str, task: str) -> None:
    built = settle(workdir)
    (workdir / "build" / "add_mul" / name).write_text('{"damaged": ')
    assert task in rebuilt(workdir)
    # Written as it was. (Codegen run again estimates the size from the last report, which
    # the report then compares with: advice, which a damaged file may change.)
    after = build_outputs(workdir)
    assert [after[f"add_mul/{file}"] for file in (name, "runner")] == [
        built[f"add_mul/{file}"] for file in (name, "runner")
    ]
    assert build_add_mul(workdir).stdout.startswith("nothing to do:")


def test_continue_names_what_it_skipped_in_one_line(workdir: Path) -> None:
    """`--continue` past a failure: one line for the tasks that needed it, where doit wrote
    `UnmetDependency - taskid:...` paragraphs (tasks/engine/reporter.py)."""
    settle(workdir)
    manifest = workdir / ADD_MUL_MANIFEST
    text = manifest.read_text()
    manifest.write_text(
        text.replace("dtype_selective = true", 'dtype_selective = true\nsize_budget = "1 KiB"')
    )
    try:
        result = doit(workdir, "--continue", f"manifest={ADD_MUL_MANIFEST}", "build")
    finally:
        manifest.write_text(text)
    assert result.returncode == 2 and "UnmetDependency" not in result.stdout + result.stderr
    # The run's last lines: what failed, what it skipped, then the build's overall line.
    assert (
        "failed: size:add_mul\nskipped summary:add_mul: it needs size:add_mul, which failed\n"
        "build: 0 of 1 target ok, failed or not built: add_mul ("
    ) in result.stdout, result.stdout
    assert result.stdout.count("\n", result.stdout.index("failed: size:add_mul")) == 3
