"""The up-to-date stamp (Note [Up-to-date stamp]): a no-op `doit build` ends before doit
loads its tasks, and every change that doit would act on still reaches doit."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from selective_build.tasks import layout
from selective_build.tasks.engine import stamp
from tests.workspace import SMALL_MANIFEST, build_small, doit, executed, small_workspace

SHORTCUT = "(no input moved since the last check)"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = small_workspace(tmp_path_factory.mktemp("stamp"))
    build_small(workdir)
    return workdir


def build(workdir: Path, *options: str) -> tuple[list[str], bool]:
    """The tasks one `doit build` ran, and whether the stamp answered for doit."""
    output = build_small(workdir, *options)
    return executed(output), SHORTCUT in output


def settle(workdir: Path) -> None:
    """After whatever changed, one build makes the next no-op a shortcut."""
    build(workdir)
    assert build(workdir) == ([], True)


def test_the_first_no_op_after_a_build_is_answered_by_the_stamp(workdir: Path) -> None:
    output = build_small(workdir)
    assert output.startswith("nothing to do: ") and SHORTCUT in output
    assert build(workdir, "-n", "2") == ([], True)


def test_forgetting_a_task_reaches_doit(workdir: Path) -> None:
    settle(workdir)
    task = "compile:build/mlp/obj/selected_kernels.o"
    assert doit(workdir, f"manifest={SMALL_MANIFEST}", "forget", task).returncode == 0
    ran, shortcut = build(workdir)
    assert task in ran and not shortcut


def test_a_deleted_output_is_rebuilt(workdir: Path) -> None:
    settle(workdir)
    (workdir / "build" / "add_mul" / "runner").unlink()
    ran, _ = build(workdir)
    assert "link:add_mul" in ran


def test_a_header_edit_recompiles_and_a_header_touch_does_not(workdir: Path) -> None:
    settle(workdir)
    header = workdir / "runtime" / "core" / "tensor.h"
    os.utime(header, (header.stat().st_atime, header.stat().st_mtime + 50))
    assert build(workdir) == ([], False)
    assert build(workdir) == ([], True)
    header.write_text(header.read_text() + "// edited\n")
    ran, _ = build(workdir)
    assert any(task.startswith("compile:") for task in ran), ran


def test_a_code_edit_falls_through_to_doit(workdir: Path) -> None:
    settle(workdir)
    code = workdir / "tasks" / "engine" / "reporter.py"  # engine code no stage imports
    code.write_text(code.read_text() + "# edited\n")
    assert build(workdir) == ([], False)


def test_editing_a_module_a_stage_imports_reruns_that_stage(workdir: Path) -> None:
    settle(workdir)
    code = workdir / "codegen" / "pte" / "table.py"  # imported by the model reader
    code.write_text(code.read_text() + "# edited\n")
    ran, shortcut = build(workdir)
    assert not shortcut and {"model_ops:add_mul", "model_ops:mlp"} <= set(ran), ran


def test_a_new_runtime_source_is_compiled(workdir: Path) -> None:
    settle(workdir)
    (workdir / "runtime" / "core" / "extra_unit.cpp").write_text(
        "int rt_extra_unit_marker() { return 1; }\n"
    )
    ran, _ = build(workdir)
    assert any(task.endswith("runtime/core/extra_unit.o") for task in ran), ran


def test_other_commands_do_not_take_the_shortcut(workdir: Path) -> None:
    settle(workdir)
    result = doit(workdir, f"manifest={SMALL_MANIFEST}", "build", "target:mlp")
    assert result.returncode == 0 and SHORTCUT not in result.stdout
    result = doit(workdir, f"manifest={SMALL_MANIFEST}", "-a", "summary:mlp")
    assert "summary:mlp" in executed(result.stdout)


@pytest.mark.parametrize(
    "content", ["{", "[]", '{"key": 1}', '{"files": {"x": 7}, "tasks": "many"}', "\x00" * 9]
)
def test_a_damaged_stamp_falls_through_to_doit(workdir: Path, content: str) -> None:
    settle(workdir)
    (workdir / "build" / ".up-to-date.json").write_text(content)
    assert build(workdir) == ([], False)
    assert build(workdir) == ([], True)


# Importing dodo.py as `doit build` would, with a stamp that answers and the build lock
# held by another run: it must neither answer, nor wait, nor exit, nor install a handler,
# nor read the command line.
IMPORT_DODO = """
import signal, sys

class Unread(list):
    # Only its program name may be read (doit names itself after it).
    def __getitem__(self, index):
        assert index == 0, "sys.argv was read"
        return super().__getitem__(index)

    def __iter__(self):
        raise AssertionError("sys.argv was read")

sys.argv = Unread(["doit", "build"])
handlers = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
import dodo
assert handlers == [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
print(sorted(name for name in vars(dodo) if name.startswith("task_")))
"""


def test_importing_dodo_has_no_effect(workdir: Path) -> None:
    settle(workdir)
    build = workdir / "build"
    before = sorted((str(path), path.stat().st_mtime_ns) for path in build.rglob("*"))
    with (build / ".doit.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a running build holds it
        result = subprocess.run(
            [sys.executable, "-c", IMPORT_DODO],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    assert (result.returncode, result.stderr) == (0, ""), result.stdout + result.stderr
    assert "'task_build'" in result.stdout and "nothing to do" not in result.stdout
    assert sorted((str(path), path.stat().st_mtime_ns) for path in build.rglob("*")) == before


def test_another_copy_of_the_code_is_not_answered_by_the_stamp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same folder, manifest and interpreter, but our code imported from another
    checkout (PYTHONPATH, an editable install): the stamped files are the other copy's,
    so the stamp's key must differ and the build fall through to doit."""
    before = stamp._key()
    monkeypatch.setattr(layout, "source_root", lambda: Path("/elsewhere/selective_build"))
    assert stamp._key() != before
