"""The one declaration of the build's stages.

Note [Stage table]
Every stage is one row of STAGES: its name (the basename of its tasks), what `doit list`
says of it, the module defining its actions (its code: tasks/code_deps.py), the stages whose
files its tasks read, and how its tasks are made: by a task creator of its own (a stage
known before any build: model_ops, selection, codegen), or per target by tasks/backend.py
once codegen has resolved the target (a `TargetPlan` in, one task dict out), or, for
compile alone, by the backend from every target's objects at once (objects are shared).
What is derived from it: the task creators dodo.py and `selective-build` load
(tasks/creators.py), the backend's groups and each target's tasks, what `doit build` and
`target:<name>` run (the stages no stage reads), and the graph of which stage reruns after
which (tests/test_code_edits.py). Adding a stage is its module and its row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from selective_build.tasks.codegen import task_codegen
from selective_build.tasks.link import link_task
from selective_build.tasks.models import task_model_ops
from selective_build.tasks.package import package_task
from selective_build.tasks.selection import task_selection
from selective_build.tasks.size import size_task
from selective_build.tasks.summary import summary_task
from selective_build.tasks.target import TargetPlan
from selective_build.tasks.verify import verify_task

PerTarget = Callable[[TargetPlan], dict[str, Any]]


@dataclass(frozen=True)
class Stage:
    name: str
    code: str  # the module defining the stage's actions
    reads: tuple[str, ...]  # the stages whose files its tasks read
    creator: Callable[..., Any] | None = None  # its own task creator (its docstring: its doc)
    per_target: PerTarget | None = None  # its task of one target, made by the backend
    doc: str = ""  # what `doit list` says of a stage the backend makes


STAGES = (
    Stage(
        "model_ops",
        "selective_build.tasks.models",
        (),
        creator=task_model_ops,
    ),
    Stage(
        "selection",
        "selective_build.tasks.selection",
        ("model_ops",),
        creator=task_selection,
    ),
    Stage(
        "codegen",
        "selective_build.tasks.codegen",
        ("selection",),
        creator=task_codegen,
    ),
    Stage(
        "compile",
        "selective_build.tasks.compile_action",
        ("codegen",),
        doc="Compile one translation unit (objects shared between targets where possible).",
    ),
    Stage(
        "link",
        "selective_build.tasks.link_action",
        ("compile",),
        per_target=link_task,
        doc="Link a target's runner (a library-only target's size app) and strip it.",
    ),
    Stage(
        "size",
        "selective_build.tasks.size",
        ("selection", "codegen", "compile", "link"),
        per_target=size_task,
        doc="Measure a target's runner (or what its library adds to an app); check budgets.",
    ),
    Stage(
        "verify",
        "selective_build.tasks.verify",
        ("link",),
        per_target=verify_task,
        doc="Run every model of a target on its runner and compare with its references.",
    ),
    Stage(
        "summary",
        "selective_build.tasks.summary",
        ("size", "verify"),
        per_target=summary_task,
        doc="Print a target's one-line summary.",
    ),
    Stage(
        "package",
        "selective_build.tasks.package",
        ("codegen", "link"),
        per_target=package_task,
        doc="Write a target's C++ package: headers, static library, CMake, pkg-config.",
    ),
)
# The group of one target's tasks: `doit target:<name>`.
TARGET_GROUP = "target"
TARGET_GROUP_DOC = "Everything for one target: `doit target:<name>`."


def after_codegen() -> list[Stage]:
    """The stages tasks/backend.py makes once codegen has resolved each target."""
    return [stage for stage in STAGES if stage.creator is None]


def final_stages() -> list[str]:
    """The stages no stage reads: what a build (and `target:<name>`) ends with."""
    read = {name for stage in STAGES for name in stage.reads}
    return [stage.name for stage in STAGES if stage.name not in read]


def downstream() -> dict[str, set[str]]:
    """Per stage, every stage that reads what it writes, directly or not."""
    readers: dict[str, set[str]] = {stage.name: set() for stage in STAGES}
    for stage in STAGES:
        for name in stage.reads:
            readers[name].add(stage.name)
    return {name: set(_reached(name, readers)) for name in readers}


def _reached(name: str, readers: dict[str, set[str]]) -> Iterator[str]:
    for reader in readers[name]:
        yield reader
        yield from _reached(reader, readers)
