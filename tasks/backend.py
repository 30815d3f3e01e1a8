"""Compile, link, size, verify and summary tasks of every target.

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

from codegen.errors import InputError
from codegen.manifest import Manifest
from codegen.resolution_file import ResolutionFile
from tasks import layout
from tasks.compile import ObjectSpec, compile_tasks, target_objects
from tasks.engine.evidence import Reads
from tasks.engine.run import Request
from tasks.link import library_specs, link_task, size_app_objects
from tasks.manifest import manifest
from tasks.package import package_task
from tasks.size import size_task
from tasks.summary import summary_task
from tasks.verify import verify_task

STAGES = {
    "compile": "Compile one translation unit (objects shared between targets where possible).",
    "link": "Link a target's runner (a library-only target's size app) and strip it.",
    "package": "Write a target's C++ package: headers, static library, CMake, pkg-config.",
    "size": "Measure a target's runner (or what its library adds to an app); check budgets.",
    "verify": "Run every model of a target on its runner and compare with its references.",
    "summary": "Print a target's one-line summary.",
    "target": "Everything for one target: `doit target:<name>`.",
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
        if not colon or stage not in STAGES or name in created:
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
            f"'{name}' is not a task (the targets are {known};"
            f" see `{request.program} list --all`)"
        )


# `creates`: `build` may depend on `summary` before this creator has run. A command that
# runs no task makes these tasks at once (tasks/engine/loader.py for_run).
@create_after(executed="codegen", creates=list(STAGES))  # type: ignore[untyped-decorator]
def task_backend(reads: Reads, request: Request) -> Iterator[dict[str, Any]]:
    """Per target, after codegen: compile, link, size, verify, summary; target:<name>."""
    current = manifest()
    for toolchain in current.toolchains.values():  # read when the manifest was
        if toolchain.cmake_toolchain_file is not None:
            reads.exists(toolchain.cmake_toolchain_file)
    objects: dict[str, list[ObjectSpec]] = {}
    app_objects: list[ObjectSpec] = []
    for target in current.targets.values():
        resolution = layout.resolution(target.name)
        text = reads.text(resolution)
        if text is None:
            continue  # `doit list` before any build: nothing is known yet.
        sources = list(_resolution(text, resolution).sources)
        toolchain = current.toolchains[target.toolchain]
        libraries = [current.libraries[name] for name in target.libraries]
        specs = target_objects(target, toolchain, sources, libraries, reads=reads)
        if not target.runner:  # library-only: no runner's command line to compile
            specs = library_specs(specs)
            app_objects.extend(size_app_objects(toolchain))
        objects[target.name] = specs
    tasks = [
        *compile_tasks([*(spec for specs in objects.values() for spec in specs), *app_objects]),
        *(task for name, specs in objects.items() for task in _target_tasks(current, name, specs)),
    ]
    refuse_unknown_names(
        request,
        {f"{task['basename']}:{task['name']}" for task in tasks},
        waiting=set(current.targets) - set(objects),
        targets=set(current.targets),
    )
    for stage, doc in STAGES.items():
        yield {"basename": stage, "name": None, "doc": doc}
    yield from tasks


def _resolution(text: str, path: Path) -> ResolutionFile:
    """The resolution codegen wrote; a bad one ends doit with one line, not a traceback."""
    try:
        return ResolutionFile.from_json(text, path)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def _target_tasks(current: Manifest, name: str, specs: list[ObjectSpec]) -> list[dict[str, Any]]:
    target = current.targets[name]
    toolchain = current.toolchains[target.toolchain]
    return [
        link_task(target, toolchain, specs),
        size_task(target, current, specs),
        verify_task(target, toolchain, [current.models[m] for m in target.models]),
        summary_task(target),
        package_task(target),
        {
            "basename": "target",
            "name": name,
            "actions": None,
            "task_dep": [f"summary:{name}", f"package:{name}"],
        },
    ]
