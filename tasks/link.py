"""Stage 5: link each target's runner, keep an unstripped copy for attribution, strip."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target, Toolchain
from tasks import layout
from tasks.actions import run_to_temporaries, temporary
from tasks.compile import ObjectSpec, installed

BASE_LDFLAGS = ("-Wl,--gc-sections", "-Wl,--as-needed")


def link_command(toolchain: Toolchain, objects: Sequence[Path], output: Path) -> list[str]:
    return [
        *toolchain.compile_command(),
        *toolchain.cflags,
        *BASE_LDFLAGS,
        *toolchain.ldflags,
        "-o",
        str(output),
        *(str(o) for o in objects),
    ]


def link_runner(toolchain: Toolchain, objects: list[Path], unstripped: Path, runner: Path) -> bool:
    command = link_command(toolchain, objects, temporary(unstripped))
    if not run_to_temporaries(command, [unstripped]):
        return False
    strip = [toolchain.strip, "--strip-all", "-o", str(temporary(runner)), str(unstripped)]
    return run_to_temporaries(strip, [runner])


def library_objects(specs: Sequence[ObjectSpec]) -> list[Path]:
    """Every object but the runner's command line (runtime/runner/)."""
    runner_sources = layout.runtime_dir() / "runner"
    return [spec.object for spec in specs if runner_sources not in spec.source.parents]


def archive_command(toolchain: Toolchain, objects: Sequence[Path], output: Path) -> list[str]:
    # D: zero timestamps and ids, so two builds give the same bytes.
    return [toolchain.ar, "rcsD", str(output), *(str(o) for o in objects)]


def archive_library(toolchain: Toolchain, objects: list[Path], library: Path) -> bool:
    temporary(library).unlink(missing_ok=True)  # ar adds to an existing archive
    return run_to_temporaries(archive_command(toolchain, objects, temporary(library)), [library])


def link_task(target: Target, toolchain: Toolchain, specs: Sequence[ObjectSpec]) -> dict[str, Any]:
    objects = [spec.object for spec in specs]
    unstripped, runner = layout.unstripped_runner(target.name), layout.runner(target.name)
    library, archived = layout.runtime_library(target.name), library_objects(specs)
    command = (
        link_command(toolchain, objects, unstripped)
        + [toolchain.strip]
        + archive_command(toolchain, archived, library)
    )
    return {
        "basename": "link",
        "name": target.name,
        "actions": [
            (link_runner, [toolchain, objects, unstripped, runner]),
            (archive_library, [toolchain, archived, library]),
        ],
        "file_dep": [*objects, *installed(toolchain.compiler)],
        # Tasks created after codegen see no implicit dependencies (doit notes, 2.2).
        "task_dep": [f"compile:{o}" for o in objects],
        "targets": [unstripped, runner, library],
        "uptodate": [config_changed(" ".join(command))],
        "clean": True,
    }
