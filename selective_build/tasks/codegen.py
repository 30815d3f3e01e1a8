"""Stage 3: resolve each target's selection to kernels and generate its C++ sources."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from doit.task import clean_targets
from doit.tools import config_changed

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.manifest import Library
from selective_build.codegen.plan.runtime import Renderer
from selective_build.codegen.render import TEMPLATES, render_declared_headers
from selective_build.codegen.resolution import Resolution, resolve
from selective_build.codegen.resolution_file import ResolutionFile
from selective_build.codegen.selection import Selection
from selective_build.codegen.size.settings import TargetSettings
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import remove_folder, reports_user_errors
from selective_build.tasks.engine.evidence import Reads
from selective_build.tasks.manifest import manifest
from selective_build.tasks.runtimes import runtime_of


def generator_code() -> list[Path]:
    """The code and templates the codegen action runs."""
    templates = layout.paths().templates_dir
    return [
        *action_code(generate),
        *sorted(templates / t.name for t in TEMPLATES.glob("*.j2")),
    ]


@reports_user_errors
def generate(
    target: str,
    render: Renderer,
    libraries: list[Library],
    selection: Path,
    output_dir: Path,
    settings: TargetSettings,
    reports: dict[str, Path],
) -> None:
    kernel_libraries = [
        read_kernel_library(lib.name, lib.functions, lib.sources) for lib in libraries
    ]
    resolution = resolve(Selection.read(selection), kernel_libraries, target)
    for name, text in render(resolution).items():
        write_if_changed(output_dir / name, text)
    # Note [Shared objects] (codegen/plan/objects.py): the same bytes from every target.
    for (library, source), text in render_declared_headers(resolution, kernel_libraries).items():
        write_if_changed(layout.paths().declared_dtypes_header(library, source), text)
    write_if_changed(layout.paths().resolution(target), ResolutionFile.of(resolution).to_json())
    write_estimate(target, resolution, settings, reports)


def write_estimate(
    target: str, resolution: Resolution, settings: TargetSettings, reports: dict[str, Path]
) -> None:
    """Predict the runner's size from the size reports of earlier builds (`reports`: every
    target's size.json; Note [Size estimate]), write size_estimate.json and print it. The
    reports are read here, in the action, and are no dependency of the task: they advise,
    and must not re-run codegen."""
    from selective_build.codegen.size.predict import estimate_target

    result = estimate_target(target, resolution, settings, reports)
    write_if_changed(layout.paths().size_estimate(target), result.to_json())
    if result.file is not None:  # a first build has nothing to estimate from
        print(result.line())


def task_codegen(reads: Reads) -> Iterator[dict[str, Any]]:
    """Resolve kernels and render registration, dtype filter and registry size."""
    paths = layout.paths()
    current = manifest()
    for target in current.targets.values():
        libraries = [current.libraries[name] for name in target.libraries]
        output_dir = paths.gen_dir(target.name)
        # Note [Target runtime]: which registration the runtime needs.
        runtime = runtime_of(target, current.toolchains[target.toolchain], reads)
        yield {
            "name": target.name,
            "actions": [
                (
                    generate,
                    [
                        target.name,
                        runtime.renderer(),
                        libraries,
                        paths.selection(target.name),
                        output_dir,
                        # What decides whether another report's kernel bytes are
                        # comparable: an action argument, not a dependency (the
                        # estimate advises).
                        TargetSettings.of(target),
                        {name: paths.size_json(name) for name in current.targets},
                    ],
                )
            ],
            "file_dep": [
                paths.selection(target.name),
                *generator_code(),
                *(lib.functions for lib in libraries),
            ],
            "targets": [
                *(output_dir / name for name in runtime.generated_files()),
                paths.resolution(target.name),
                paths.size_estimate(target.name),
            ],
            "uptodate": [
                config_changed(
                    {
                        "libraries": [
                            [lib.name, str(lib.functions), str(lib.sources)] for lib in libraries
                        ],
                        **runtime.record(),
                    }
                )
            ],
            # Besides its targets, the per-source headers (Note [Per-source dtype headers]).
            "clean": [clean_targets, (remove_folder, [output_dir / "ops"])],
        }
