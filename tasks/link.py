"""Stage 5: link each target's runner, keep an unstripped copy for attribution, strip.

A library-only target (`runner = false`) links no runner: its library, and the minimal app
its size is measured with, linked once without and once with that library (Note
[Library-only size], tasks/size.py)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target, Toolchain
from tasks import layout
from tasks.compile import BASE_CFLAGS, ObjectSpec, installed
from tasks.engine.actions import run_to_temporaries, temporary

BASE_LDFLAGS = ("-Wl,--gc-sections", "-Wl,--as-needed")
# Compiles the minimal app's calls into the runtime (runtime/size_app/minimal_app.cpp).
WITH_LIBRARY_DEFINE = "-DSELECTIVE_WITH_LIBRARY"


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


def library_specs(specs: Sequence[ObjectSpec]) -> list[ObjectSpec]:
    """Every object but the runner's command line (runtime/runner/)."""
    runner_sources = layout.runtime_dir() / "runner"
    return [spec for spec in specs if runner_sources not in spec.source.parents]


def library_objects(specs: Sequence[ObjectSpec]) -> list[Path]:
    return [spec.object for spec in library_specs(specs)]


def archive_command(toolchain: Toolchain, objects: Sequence[Path], output: Path) -> list[str]:
    # D: zero timestamps and ids, so two builds give the same bytes.
    return [toolchain.ar, "rcsD", str(output), *(str(o) for o in objects)]


def archive_library(toolchain: Toolchain, objects: list[Path], library: Path) -> bool:
    temporary(library).unlink(missing_ok=True)  # ar adds to an existing archive
    return run_to_temporaries(archive_command(toolchain, objects, temporary(library)), [library])


def size_app_objects(toolchain: Toolchain) -> tuple[ObjectSpec, ObjectSpec]:
    """The minimal app's objects, (without, with) the library's calls. They read no
    generated header, so every library-only target of a toolchain shares them."""
    source = layout.size_app_source()
    common = (*BASE_CFLAGS, *toolchain.cflags, f"-I{layout.source_root()}")
    specs = []
    for flags in (common, (*common, WITH_LIBRARY_DEFINE)):
        folder = layout.shared_object_dir(toolchain, flags)
        specs.append(ObjectSpec(source, layout.object_path(folder, source), flags, toolchain))
    return specs[0], specs[1]


def library_task(
    target: Target, toolchain: Toolchain, specs: Sequence[ObjectSpec]
) -> dict[str, Any]:
    """A library-only target's link: its library and the minimal app without and with it."""
    name = target.name
    library, archived = layout.runtime_library(name), library_objects(specs)
    without, with_calls = size_app_objects(toolchain)
    links = [
        ([without.object], layout.unstripped_size_app(name, False), layout.size_app(name, False)),
        (
            [with_calls.object, library],
            layout.unstripped_size_app(name, True),
            layout.size_app(name, True),
        ),
    ]
    command = archive_command(toolchain, archived, library) + [toolchain.strip]
    for objects, unstripped, _ in links:
        command += link_command(toolchain, objects, unstripped)
    return {
        "basename": "link",
        "name": name,
        "actions": [
            (archive_library, [toolchain, archived, library]),
            *(
                (link_runner, [toolchain, objects, unstripped, app])
                for objects, unstripped, app in links
            ),
        ],
        "file_dep": [*archived, without.object, with_calls.object, *installed(toolchain.compiler)],
        # Tasks created after codegen see no implicit dependencies (doit notes, 2.2).
        "task_dep": [f"compile:{o}" for o in (*archived, without.object, with_calls.object)],
        "targets": [library, *(path for _, unstripped, app in links for path in (unstripped, app))],
        "uptodate": [config_changed(" ".join(command))],
        "clean": True,
    }


def link_task(target: Target, toolchain: Toolchain, specs: Sequence[ObjectSpec]) -> dict[str, Any]:
    if not target.runner:
        return library_task(target, toolchain, specs)
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
