"""Stage 3: resolve each target's selection to kernels and generate its C++ sources."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.kernel_library import read_kernel_library
from codegen.manifest import Library, Target
from codegen.plan.runtime import Renderer
from codegen.render import TEMPLATES, render_declared_headers
from codegen.resolution import Resolution, resolve
from codegen.resolution_file import ResolutionFile
from codegen.selection import Selection
from codegen.writer import write_if_changed
from tasks import layout
from tasks.code_deps import action_code
from tasks.engine.actions import reports_user_errors
from tasks.engine.evidence import Reads
from tasks.manifest import manifest
from tasks.runtimes import runtime_of


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
    estimate_config: dict[str, Any],
    other_targets: tuple[str, ...],
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
    write_estimate(target, resolution, estimate_config, other_targets)


def write_estimate(
    target: str, resolution: Resolution, config: dict[str, Any], other_targets: tuple[str, ...]
) -> None:
    """Predict the runner's size from earlier size reports (Note [Size estimate]), write
    size_estimate.json and print it. The reports are read here, in the action, and are
    no dependency of the task: they advise, and must not re-run codegen."""
    paths = layout.paths()
    from codegen.plan.estimate import every_dtype_buckets
    from codegen.size.estimate import estimate, read_report

    previous = read_report(paths.size_json(target))
    # Other targets' reports matter only for a rebuild (Note [Size estimate]).
    others = {
        name: report
        for name in other_targets
        if previous is not None
        and name != target
        and (report := read_report(paths.size_json(name))) is not None
    }
    result = estimate(
        target,
        every_dtype_buckets(resolution, bool(config.get("dtype_selective"))),
        resolution.registry_slots,
        config,
        previous,
        others,
    )
    write_if_changed(paths.size_estimate(target), result.to_json())
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
                        _estimate_config(target),
                        tuple(current.targets),
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
            "clean": True,
        }


def _estimate_config(target: Target) -> dict[str, Any]:
    """What decides whether another target's kernel bytes are comparable (an action
    argument, not a dependency: the estimate is advisory)."""
    return {"dtype_selective": target.dtype_selective, "toolchain": target.toolchain}
