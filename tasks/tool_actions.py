"""The actions of the compile and link steps: run a step's commands, each writing to a
temporary that is moved into place (tasks/actions.py). Apart from the task wiring, so that
the code these steps depend on is only this (Note [Tool step code], codegen/plan/steps.py)."""

from __future__ import annotations

from codegen.plan.steps import Archive, CompileStep, Link, Tools
from tasks.actions import run_to_temporaries, temporary


def compile_object(step: CompileStep) -> bool:
    command = step.command(temporary(step.object), temporary(step.depfile))
    return run_to_temporaries(command, [step.object, step.depfile])


def link(tools: Tools, link: Link) -> bool:
    """Link, then strip."""
    command = tools.link_command(link.objects, temporary(link.unstripped))
    if not run_to_temporaries(command, [link.unstripped]):
        return False
    strip = tools.strip_command(link.unstripped, temporary(link.output))
    return run_to_temporaries(strip, [link.output])


def archive(tools: Tools, archive: Archive) -> bool:
    temporary(archive.output).unlink(missing_ok=True)  # ar adds to an existing archive
    command = tools.archive_command(archive.objects, temporary(archive.output))
    return run_to_temporaries(command, [archive.output])
