"""Stage 5: each target's link step (codegen/plan/link.py) as a task: its runner linked,
kept unstripped for attribution and stripped, and its static library; for a library-only
target, the library and the minimal app its size is measured with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target, Toolchain
from codegen.plan import link
from codegen.plan.objects import library_objects
from codegen.plan.steps import CompileStep, Link
from tasks import layout
from tasks.code_deps import action_code
from tasks.compile import installed
from tasks.link_action import archive
from tasks.link_action import link as link_action


def library_specs(steps: Sequence[CompileStep]) -> list[CompileStep]:
    """Every object but the runner's command line (runtime/runner/)."""
    return library_objects(layout.paths(), steps)


def size_app_objects(toolchain: Toolchain) -> tuple[CompileStep, CompileStep]:
    """The minimal app's objects, (without, with) the library's calls."""
    return link.size_app_objects(layout.paths(), toolchain)


def link_task(target: Target, toolchain: Toolchain, steps: Sequence[CompileStep]) -> dict[str, Any]:
    """The target's link step, with the toolchain it links with (Note [Threads])."""
    linking = link.linking_toolchain(target, toolchain)
    step = link.link_step(layout.paths(), target, linking, steps)
    return {
        "basename": "link",
        "name": step.target,
        "actions": [
            (link_action, [step.tools, action])
            if isinstance(action, Link)
            else (archive, [step.tools, action])
            for action in step.actions
        ],
        "file_dep": [
            *step.inputs,
            *installed(step.tools.compiler),
            *action_code(link_action, archive),  # Note [Tool step code]
        ],
        # Tasks created after codegen see no implicit dependencies (doit notes, 2.2).
        "task_dep": [f"compile:{o}" for o in step.inputs],
        "targets": step.outputs,
        "uptodate": [config_changed(step.signature())],
        "clean": True,
    }
