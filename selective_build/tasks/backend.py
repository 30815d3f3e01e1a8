"""Compile, link, size, verify, summary and package tasks of every target: the stages of
tasks/stages.py that no creator of their own makes (Note [Stage table]).

Which kernel sources a target compiles is decided by its resolution, written by the
codegen stage; so these tasks are created once codegen has run (doit's `create_after`),
all by this one creator so that their explicit `task_dep`s always name existing tasks.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from doit import create_after
from doit.exceptions import InvalidCommand

from selective_build.codegen.errors import InputError
from selective_build.codegen.plan.objects import target_objects
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.resolution_file import ResolutionFile
from selective_build.tasks import layout
from selective_build.tasks.compile import compile_tasks
from selective_build.tasks.engine.evidence import Reads
from selective_build.tasks.engine.run import Request
from selective_build.tasks.manifest import manifest
from selective_build.tasks.runtimes import runtime_of
from selective_build.tasks.stages import TARGET_GROUP, TARGET_GROUP_DOC, after_codegen, final_stages
from selective_build.tasks.target import TargetPlan

GROUPS = {
    **{stage.name: stage.doc for stage in after_codegen()},
    TARGET_GROUP: TARGET_GROUP_DOC,
}


def refuse_unknown_names(
    request: Request, created: set[str], waiting: set[str], targets: set[str]
) -> None:
    """One line for a per-target task named to a command that inspects tasks, when this
    creator did not make it: `doit info` would end in a KeyError traceback. The usual cause
    is a target whose resolution is not there (before the first build, after `doit clean`):
    its tasks are unknown until its codegen has run (`waiting`)."""
    if request.runs_tasks:
        return
    for name in request.names:
        stage, colon, rest = name.partition(":")
        if not colon or stage not in GROUPS or name in created:
            continue
        unresolved = sorted(waiting) if stage == "compile" else sorted(waiting & {rest})
        if unresolved:
            which = f"target{'s' if len(unresolved) > 1 else ''} {', '.join(unresolved)}"
            raise InvalidCommand(
                f"'{name}' is unknown until codegen has run for {which}"
                f" (`{request.program} build` or `{request.program} codegen` runs it)"
            )
        known = ", ".join(sorted(targets))
        raise InvalidCommand(
            f"'{name}' is not a task (the targets are {known}; see `{request.program} list --all`)"
        )


# `creates`: `build` may depend on `summary` before this creator has run. A command that
# runs no task makes these tasks at once (tasks/engine/loader.py for_run).
@create_after(executed="codegen", creates=list(GROUPS))  # type: ignore[untyped-decorator]
def task_backend(reads: Reads, request: Request) -> Iterator[dict[str, Any]]:
    """Per target, after codegen: compile, link, size, verify, summary; target:<name>."""
    current = manifest()
    for toolchain in current.toolchains.values():  # read when the manifest was
        if toolchain.cmake_toolchain_file is not None:
            reads.exists(toolchain.cmake_toolchain_file)
    plans: list[TargetPlan] = []
    app_objects: list[CompileStep] = []
    for target in current.targets.values():
        resolution = layout.paths().resolution(target.name)
        text = reads.text(resolution)
        if text is None:
            continue  # `doit list` before any build: nothing is known yet.
        sources = list(_resolution(text, resolution).sources)
        runtime = runtime_of(target, current.toolchains[target.toolchain], reads)
        libraries = [current.libraries[name] for name in target.libraries]
        specs = target_objects(runtime, sources, libraries)
        if not target.runner:  # library-only: no runner's command line to compile
            specs = runtime.library_objects(specs)
            app_objects.extend(runtime.size_app_objects())
        plans.append(TargetPlan(current, runtime, tuple(specs)))
    tasks = [
        *compile_tasks([*(spec for plan in plans for spec in plan.objects), *app_objects]),
        *(task for plan in plans for task in _target_tasks(plan)),
    ]
    refuse_unknown_names(
        request,
        {f"{task['basename']}:{task['name']}" for task in tasks},
        waiting=set(current.targets) - {plan.target.name for plan in plans},
        targets=set(current.targets),
    )
    for group, doc in GROUPS.items():
        yield {"basename": group, "name": None, "doc": doc}
    yield from tasks


def _resolution(text: str, path: Path) -> ResolutionFile:
    """The resolution codegen wrote; a bad one ends doit with one line, not a traceback."""
    try:
        return ResolutionFile.from_json(text, path)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def _target_tasks(plan: TargetPlan) -> list[dict[str, Any]]:
    """The target's task of every per-target stage, and its group."""
    name = plan.target.name
    return [
        *(stage.per_target(plan) for stage in after_codegen() if stage.per_target),
        {
            "basename": TARGET_GROUP,
            "name": name,
            "actions": None,
            "task_dep": [f"{stage}:{name}" for stage in final_stages()],
        },
    ]
