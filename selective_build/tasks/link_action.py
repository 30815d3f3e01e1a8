"""The actions of a link step: link then strip, and archive, each command writing to a
temporary moved into place (tasks/engine/actions.py). Apart from the task wiring, so that the code
every link depends on is only this (Note [Tool step code], codegen/plan/steps.py)."""

from __future__ import annotations

from selective_build.codegen.plan.steps import Archive, Link, Tools
from selective_build.tasks.engine.actions import run_to_temporaries, temporary


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
