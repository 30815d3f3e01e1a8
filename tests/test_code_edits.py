"""Editing a module a stage imports re-runs that stage, and no stage that neither imports it
nor reads what a re-run stage rewrote (tasks/code_deps.py: each task's code dependency is
the import closure of its actions' modules, found, never listed by hand).

One build of a one-target manifest in a copy of the repository, then one edit per stage
(a comment appended: the bytes change, the behaviour does not), each followed by a build.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from selective_build.tasks.code_deps import code_closure
from selective_build.tasks.stages import STAGES, downstream
from tests.workspace import ADD_MUL_MANIFEST as MANIFEST
from tests.workspace import add_mul_workspace, doit, executed

# The module defining each stage's actions, and the stages that read what each stage
# writes, directly or not: from the table of stages (Note [Stage table], tasks/stages.py),
# which test_the_table_reads_what_the_tasks_read holds to the tasks themselves.
STAGE_CODE = {stage.name: stage.code for stage in STAGES}
DOWNSTREAM = downstream()
# Per stage, a module it imports: its own action module, or one deeper that only it uses.
DEEPER = {
    "codegen": "selective_build/codegen/render.py",
    "size": "selective_build/codegen/size/attribution.py",
    "verify": "selective_build/codegen/verify.py",
    "package": "selective_build/codegen/package.py",
    "summary": "selective_build/codegen/size/summary.py",
}
EDITS = [
    (name, DEEPER.get(name, code.replace(".", "/") + ".py")) for name, code in STAGE_CODE.items()
]
# Prints, per task of the manifest's build, its stage, file_dep, targets and task_dep (run in
# the workspace, after a build, so that every target's tasks are made).
TASKS_SCRIPT = """
import inspect, json, sys
sys.path.insert(0, ".")
from doit import doit_cmd
doit_cmd.reset_vars()
doit_cmd.set_var("manifest", sys.argv[1])
from selective_build.tasks.creators import CREATORS
from selective_build.tasks.engine.run import Run
run = Run()
found = []
for creator in CREATORS.values():
    names = inspect.signature(creator).parameters
    given = {k: getattr(run, k) for k in ("reads", "request") if k in names}
    made = creator(**given)
    for task in [made] if isinstance(made, dict) else made:
        stage = task.get("basename", creator.__name__.removeprefix("task_"))
        found.append([stage, *(
            [str(p) for p in task.get(key, [])] for key in ("file_dep", "targets", "task_dep")
        )])
print(json.dumps(found))
"""


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
    flags = 'BASE_LDFLAGS = ("-Wl,--gc-sections", "-Wl,--as-needed", "-Wl,--spare-dynamic-tags=0")'
    assert flags in text
    plan.write_text(text.replace(flags, flags[:-1] + ', "-Wl,-O1")'))
    assert "link" in build(workdir)


def test_the_table_reads_what_the_tasks_read(workdir: Path) -> None:
    """The graph derived from the tasks themselves (a stage reads another when one of its
    tasks depends on a file the other's tasks make, or names one of them in its task_dep)
    is the graph of the table of stages."""
    listed = subprocess.run(
        [sys.executable, "-c", TASKS_SCRIPT, MANIFEST],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=True,
    )
    tasks = json.loads(listed.stdout)
    maker = {target: stage for stage, _, targets, _ in tasks for target in targets}
    derived = {
        (stage, other)
        for stage, file_dep, _, task_dep in tasks
        for other in [*(maker.get(f) for f in file_dep), *(d.partition(":")[0] for d in task_dep)]
        if other in STAGE_CODE and other != stage and stage in STAGE_CODE
    }
    declared = {(stage.name, read) for stage in STAGES for read in stage.reads}
    assert derived == declared
