"""A target's size step: which linked files it measures (Note [Library-only size],
tasks/size.py), the objects it attributes their bytes to, and the runner it compares with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen.manifest import Target
from codegen.plan.paths import BuildPaths
from codegen.plan.steps import CompileStep


@dataclass(frozen=True)
class SizeStep:
    target: str
    # A runner: the stripped runner and its unstripped copy. A library-only target: the
    # minimal app with and without its library, each stripped and unstripped.
    measured: tuple[Path, ...]
    library: Path  # the static library, whose members' sizes the report lists
    objects: tuple[tuple[Path, Path], ...]  # (source, object), in link order
    baseline_runner: Path | None  # the runner of the target's size_baseline


def size_step(paths: BuildPaths, target: Target, objects: Sequence[CompileStep]) -> SizeStep:
    name = target.name
    measured: tuple[Path, ...]
    if target.runner:
        measured = (paths.runner(name), paths.unstripped_runner(name))
    else:
        measured = tuple(
            path
            for with_library in (True, False)
            for path in (
                paths.size_app(name, with_library),
                paths.unstripped_size_app(name, with_library),
            )
        )
    baseline = target.size_baseline
    return SizeStep(
        target=name,
        measured=measured,
        library=paths.runtime_library(name),
        objects=tuple((step.source, step.object) for step in objects),
        baseline_runner=None if baseline is None else paths.runner(baseline),
    )
