"""Editing a module a stage imports re-runs that stage, and no stage that neither imports it
nor reads what a re-run stage rewrote (tasks/code_deps.py: each task's code dependency is
the import closure of its actions' modules, found, never listed by hand).

One build of a one-target manifest in a copy of the repository, then one edit per stage
(a comment appended: the bytes change, the behaviour does not), each followed by a build.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.code_deps import code_closure
from tests.workspace import ADD_MUL_MANIFEST as MANIFEST
from tests.workspace import add_mul_workspace, doit, executed

# The module defining each stage's actions.
STAGE_CODE = {
    "model_ops": "tasks.models",
    "selection": "tasks.selection",
    "codegen": "tasks.codegen",
    "compile": "tasks.compile_action",
    "link": "tasks.link_action",
    "size": "tasks.size",
    "verify": "tasks.verify",
    "package": "tasks.package",
    "summary": "tasks.summary",
}
# The stages that read what each stage writes, directly or not.
DOWNSTREAM = {
    "model_ops": {
        "selection",
        "codegen",
        "compile",
        "link",
        "size",
        "verify",
        "package",
        "summary",
    },
    "selection": {"codegen", "compile", "link", "size", "verify", "package", "summary"},
    "codegen": {"compile", "link", "size", "verify", "package", "summary"},
    "compile": {"link", "size", "verify", "package", "summary"},
    "link": {"size", "verify", "package", "summary"},
    "size": {"summary"},
    "verify": {"summary"},
    "package": set(),
    "summary": set(),
}
# Per stage, a module it imports (its own action module, or one deeper that only it uses).
EDITS = [
    ("model_ops", "tasks/models.py"),
    ("selection", "tasks/selection.py"),
    ("codegen", "codegen/render.py"),
    ("compile", "tasks/compile_action.py"),
    ("link", "tasks/link_action.py"),
    ("size", "codegen/size/elf.py"),
    ("verify", "codegen/verify.py"),
    ("package", "codegen/package.py"),
    ("summary", "codegen/size/summary.py"),
]


def importers(module_file: str) -> set[str]:
    """The stages whose code includes `module_file` (as this checkout's closures say)."""
    return {
        stage
        for stage, module in STAGE_CODE.items()
        if module_file in {str(path) for path in code_closure(module)}
    }


def build(workdir: Path) -> set[str]:
    """The stages of the tasks a `doit build` ran."""
    result = doit(workdir, f"manifest={MANIFEST}", "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return {task.partition(":")[0] for task in executed(result.stdout)}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = add_mul_workspace(tmp_path_factory.mktemp("code_edits"))
    assert set(STAGE_CODE) <= build(workdir)
    assert build(workdir) == set()
    return workdir


@pytest.mark.parametrize(("stage", "module_file"), EDITS, ids=[stage for stage, _ in EDITS])
def test_editing_a_module_a_stage_imports_reruns_that_stage(
    workdir: Path, stage: str, module_file: str
) -> None:
    users = importers(module_file)
    assert stage in users, f"{module_file} is not in the code of {stage}"
    edited = workdir / module_file
    edited.write_text(edited.read_text(encoding="utf-8") + "# edited by a test\n")
    ran = build(workdir)
    assert stage in ran, f"editing {module_file} did not rerun {stage}: {sorted(ran)}"
    allowed = users.union(*(DOWNSTREAM[user] for user in users))
    assert ran <= allowed, f"editing {module_file} reran {sorted(ran - allowed)} too"
    assert build(workdir) == set()


def test_an_edit_to_the_plan_is_seen_past_the_no_op_stamp(workdir: Path) -> None:
    """The task definitions are made by the plan (codegen/plan/), a subpackage: a no-op
    build answered from the stamp (Note [Up-to-date stamp], tasks/engine/stamp.py) must notice
    an edit there, here one that changes the link command and nothing else's inputs."""
    settled = doit(workdir, f"manifest={MANIFEST}", "build")
    assert "no input moved since the last check" in settled.stdout, settled.stdout
    plan = workdir / "codegen" / "plan" / "link.py"
    text = plan.read_text(encoding="utf-8")
    flags = 'BASE_LDFLAGS = ("-Wl,--gc-sections", "-Wl,--as-needed")'
    assert flags in text
    plan.write_text(text.replace(flags, flags[:-1] + ', "-Wl,-O1")'))
    assert "link" in build(workdir)
