"""A damaged database, a full disk, a read-only build folder: one line each naming the file
and what to do, never a traceback; once the disk has room, the next build completes with
the bytes of a build that never failed (Note [Unwritable build folder] in
tasks/engine/storage.py, tasks/engine/database.py).

The disk and the folder are real: a small tmpfs mounted on the build folder, and a
read-only bind mount of it. CI runs as root; a machine that cannot mount fails these tests
with the reason, it does not skip them."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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

FULL = ": free some space on its disk, then build again"
READ_ONLY = (
    "Read-only file system: make the build folder writable, or build elsewhere with build=DIR"
)


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, bytes]]:
    workdir = add_mul_workspace(tmp_path_factory.mktemp("clean"))
    assert build_add_mul(workdir).returncode == 0
    return build_outputs(workdir)


def mount(*arguments: str) -> None:
    result = subprocess.run(["mount", *arguments], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        pytest.fail(f"cannot mount ({' '.join(arguments)}): {result.stderr.strip()}")


@contextmanager
def mounted(folder: Path, *arguments: str) -> Iterator[Path]:
    """`mount ARGUMENTS folder`, unmounted whatever happens."""
    folder.mkdir(exist_ok=True)
    mount(*arguments, str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize(
    "damage",
    [lambda data: data[: len(data) // 2], lambda data: b"\0" * len(data)],
    ids=["truncated", "zeroed"],
)
def test_a_damaged_database_is_replaced_in_one_line(
    tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    workdir = add_mul_workspace(tmp_path)
    assert build_add_mul(workdir).returncode == 0
    database = workdir / "build" / ".doit.sqlite3"
    database.write_bytes(damage(database.read_bytes()))
    result = build_add_mul(workdir)
    no_traceback(result)
    assert result.returncode == 0
    assert result.stderr.startswith("warning: build/.doit.sqlite3 is damaged (")
    assert result.stderr.endswith(
        "): every task runs again, and the file is replaced when this run saves\n"
    )
    assert result.stderr.count("\n") == 1
    assert "link:add_mul" in executed(result.stdout)
    assert build_add_mul(workdir).stdout.startswith("nothing to do:")


def test_a_full_disk_is_one_line_and_the_build_completes_once_there_is_room(
    tmp_path: Path, clean_build: dict[str, tuple[int, bytes]]
) -> None:
    workdir = add_mul_workspace(tmp_path)
    # About half of what the build writes (some 780 KB).
    with mounted(workdir / "build", "-t", "tmpfs", "-o", "size=400k", "tmpfs") as build:
        result = build_add_mul(workdir)
        no_traceback(result)
        assert result.returncode != 0
        lines = result.stderr.splitlines()
        assert lines and all(line.startswith("error: cannot ") for line in lines), lines
        assert all(line.endswith(FULL) for line in lines), lines
        mount("-o", "remount,size=8m", str(build))
        result = build_add_mul(workdir)
        assert result.returncode == 0, result.stdout + result.stderr
        assert differing(build_outputs(workdir), clean_build) == []


def test_a_read_only_build_folder_is_one_line(tmp_path: Path) -> None:
    workdir = add_mul_workspace(tmp_path)
    assert build_add_mul(workdir).returncode == 0
    assert build_add_mul(workdir).stdout.startswith("nothing to do:")
    build = workdir / "build"
    with mounted(build, "--bind", str(build)):
        mount("-o", "remount,ro,bind", str(build))
        # Nothing moved: nothing to write, and no build can be changing a read-only folder.
        result = build_add_mul(workdir)
        assert (result.returncode, result.stderr) == (0, "")
        assert result.stdout.startswith("nothing to do:")
        # Something to do, and a clean: neither can write.
        source = workdir / "kernels" / "portable" / "op_add.cpp"
        source.write_text(source.read_text() + "\n")
        for command in ("build", "clean"):
            result = doit(workdir, f"manifest={ADD_MUL_MANIFEST}", command)
            assert (result.returncode, result.stdout) == (2, "")
            assert result.stderr == f"error: cannot write build/.doit.lock: {READ_ONLY}\n"
