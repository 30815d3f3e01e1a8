"""The action of a compile step: run its command, writing the object and its depfile to
temporaries moved into place (tasks/engine/actions.py). Apart from the task wiring, so that the
code every compile depends on is only this (Note [Tool step code], codegen/plan/steps.py)."""

from __future__ import annotations

from selective_build.codegen.plan.steps import CompileStep
from selective_build.tasks.engine.actions import run_to_temporaries, temporary


def compile_object(step: CompileStep) -> bool:
    command = step.command(temporary(step.object), temporary(step.depfile))
    return run_to_temporaries(command, [step.object, step.depfile])
