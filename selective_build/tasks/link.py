"""Stage 5: each target's link step (codegen/plan/link.py) as a task: its runner linked,
kept unstripped for attribution and stripped, and its static library; for a library-only
target, the library and the minimal app its size is measured with."""

from __future__ import annotations

from typing import Any

from doit.tools import config_changed

from selective_build.codegen.plan.link import link_step
from selective_build.codegen.plan.steps import Link
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.compile import installed
from selective_build.tasks.link_action import archive
from selective_build.tasks.link_action import link as link_action
from selective_build.tasks.target import TargetPlan


def link_task(plan: TargetPlan) -> dict[str, Any]:
    """The target's link step, with the toolchain it links with (Note [Threads])."""
    step = link_step(plan.runtime, plan.objects)
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
