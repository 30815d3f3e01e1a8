"""doit's commands that inspect tasks (list, info, forget, clean) on every kind of task, in a
fresh folder, once codegen has run and after `doit clean`: never a traceback, at most one
line of error. The per-target tasks exist only once codegen has resolved their target
(tasks/backend.py), so before that a name of theirs gets one line saying so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.workspace import SMALL_MANIFEST, doit, small_workspace

# One task of every kind, of the target add_mul (and its model).
PER_TARGET = [
    "compile:build/add_mul/obj/selected_kernels.o",
    "link:add_mul",
    "size:add_mul",
    "verify:add_mul",
    "summary:add_mul",
    "target:add_mul",
]
ALWAYS_KNOWN = ["build", "model_ops:add_mul", "selection:add_mul", "codegen:add_mul", "explain"]
UNKNOWN_UNTIL_CODEGEN = (
    "ERROR: 'link:add_mul' is unknown until codegen has run for target add_mul"
    " (`doit build` or `doit codegen` runs it)\n"
)


def run(workdir: Path, *args: str) -> tuple[str, str]:
    result = doit(workdir, f"manifest={SMALL_MANIFEST}", *args, timeout=300)
    output = result.stdout + result.stderr
    assert "Traceback" not in output, f"doit {' '.join(args)}:\n{output}"
    assert len(result.stderr.splitlines()) <= 1, f"doit {' '.join(args)}:\n{result.stderr}"
    return result.stdout, result.stderr


def inspect_every_kind(workdir: Path) -> None:
    """Each inspecting command on each kind of task; `clean` last, as it removes outputs."""
    for names in (["list"], ["list", "--all"]):
        run(workdir, *names)
    for name in ALWAYS_KNOWN + PER_TARGET:
        run(workdir, "info", name)
    run(workdir, "forget", *ALWAYS_KNOWN)
    for name in PER_TARGET:
        run(workdir, "forget", name)
        run(workdir, "clean", name)
    run(workdir, "clean", *ALWAYS_KNOWN)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return small_workspace(tmp_path)


def test_in_a_fresh_folder_a_per_target_task_is_unknown_in_one_line(workdir: Path) -> None:
    inspect_every_kind(workdir)
    assert run(workdir, "info", "link:add_mul")[1] == UNKNOWN_UNTIL_CODEGEN


def test_once_codegen_has_run_every_task_is_known(workdir: Path) -> None:
    run(workdir, "codegen")
    for name in PER_TARGET:
        stdout, stderr = run(workdir, "info", name)
        assert stdout.startswith(f"\n{name}\n") and not stderr
    inspect_every_kind(workdir)


def test_after_clean_a_per_target_task_is_unknown_in_one_line(workdir: Path) -> None:
    """`doit clean` removes the resolutions: `doit info link:<target>` was a KeyError."""
    run(workdir, "codegen")
    run(workdir, "clean")
    assert run(workdir, "info", "link:add_mul")[1] == UNKNOWN_UNTIL_CODEGEN
    assert run(workdir, "info", "link:no_such_target")[1] == (
        "ERROR: 'link:no_such_target' is not a task"
        " (the targets are add_mul, both, mlp; see `doit list --all`)\n"
    )
    inspect_every_kind(workdir)


# Names no creator makes, whatever has run: each command says so in one line (doit's own
# `info` ended in a KeyError traceback; tasks/engine/commands.py).
NOT_TASKS = ["nosuch", "selection:no_such_target", "model_ops:no_such_model"]


@pytest.mark.parametrize("name", NOT_TASKS)
def test_an_unknown_name_is_one_line_for_every_command(workdir: Path, name: str) -> None:
    for command in ("info", "list", "forget", "clean"):
        assert run(workdir, command, name)[1] == f"ERROR: '{name}' is not a task.\n"
    assert not (workdir / "build").exists()


def test_the_installed_command_refuses_an_unknown_info_name_in_one_line(workdir: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from selective_build.tasks.command import main; sys.exit(main())",
        ]
        + [f"manifest={SMALL_MANIFEST}", "info", "nosuch"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (result.returncode, result.stdout) == (3, "")
    assert result.stderr == "ERROR: 'nosuch' is not a task.\n"
