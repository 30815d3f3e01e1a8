"""Stage 4: one compile task per translation unit, with exact dependencies.

Which objects a target links and with which flags is planned in codegen/plan/objects.py
(Note [Shared objects] there); this module reads what that plan needs from the disk (the
runtime's sources, a dtype-selective target's generated header) and maps each step to a
task whose `uptodate` holds the compile command and the headers its depfile names.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Library, Target, Toolchain
from codegen.plan import objects
from codegen.plan.steps import CompileStep
from tasks import layout
from tasks.code_deps import action_code
from tasks.compile_action import compile_object
from tasks.engine.depfile import HeadersUnchanged
from tasks.engine.evidence import Reads

ObjectSpec = CompileStep  # the name the other stages know the compile step by


def runtime_sources() -> list[Path]:
    return objects.runtime_sources(layout.paths(), layout.runtime_dir().rglob("*.cpp"))


def selects_bool(target: Target, reads: Reads) -> bool:
    """Whether an operator of the dtype-selective `target` takes a Bool tensor, from its
    generated selected_op_variants.h (read through `reads`: a task definition is made
    from it)."""
    header = layout.gen_dir(target.name) / "selected_op_variants.h"
    return objects.selects_bool(reads.text(header))


def target_objects(
    target: Target,
    toolchain: Toolchain,
    kernel_sources: list[Path],
    libraries: Iterable[Library] = (),
    *,
    reads: Reads,
) -> list[CompileStep]:
    """Every object the target's runner links (codegen/plan/objects.py target_objects).
    `reads`: the task creator's (it reads the target's generated header)."""
    return objects.target_objects(
        layout.paths(),
        target,
        toolchain,
        runtime_sources(),
        kernel_sources,
        libraries,
        bool_selected=target.dtype_selective and selects_bool(target, reads),
    )


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
