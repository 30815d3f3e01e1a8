"""Stage 4: one compile task per translation unit, with exact dependencies.

Which objects a target links and with which flags is planned in codegen/plan/objects.py
(Note [Shared objects] there) and by the target's runtime (Note [Target runtime],
codegen/plan/runtime.py); this module maps each step to a task whose `uptodate` holds the
compile command and the headers its depfile names.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from selective_build.codegen.plan import objects
from selective_build.codegen.plan.steps import CompileStep
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.compile_action import compile_object
from selective_build.tasks.engine.depfile import HeadersUnchanged


@functools.cache
def installed(program: str) -> tuple[Path, ...]:
    """The file `program` runs, symlinks resolved (none when it is not installed: running
    it fails with one line). As a `file_dep` it rebuilds what it made when the compiler
    is upgraded or `c++` is pointed at another one."""
    found = shutil.which(program)
    return (Path(os.path.realpath(found)),) if found else ()


def compile_tasks(steps: Iterable[CompileStep]) -> Iterator[dict[str, Any]]:
    """One task per distinct object (a shared object appears once)."""
    code = action_code(compile_object)  # Note [Tool step code]
    for step in objects.unique_objects(steps):
        yield {
            "basename": "compile",
            "name": str(step.object),
            "actions": [(compile_object, [step])],
            "file_dep": [step.source, *installed(step.compiler), *code],
            "targets": [step.object, step.depfile],
            "uptodate": [config_changed(" ".join(step.command())), HeadersUnchanged(step.depfile)],
            "clean": True,
        }
