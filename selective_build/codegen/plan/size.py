"""A target's size step: which linked files it measures (Note [Library-only size],
tasks/size.py), the objects it attributes their bytes to, and the runner it compares with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.plan.runtime import TargetRuntime
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.size.inputs import LinkedSource


@dataclass(frozen=True)
class SizeStep:
    target: str
    # A runner: the stripped runner and its unstripped copy. A library-only target: the
    # minimal app with and without its library, each stripped and unstripped.
    measured: tuple[Path, ...]
    library: Path  # the static library, whose members' sizes the report lists
    objects: tuple[LinkedSource, ...]  # in link order
    baseline_runner: Path | None  # the runner of the target's size_baseline
    prebuilt: tuple[Path, ...]  # what the runner loads that no selection trims
    non_selective: Path | None = None  # the all-operators library the report compares with


def size_step(runtime: TargetRuntime, objects: Sequence[CompileStep]) -> SizeStep:
    """The runtime's own objects in its buckets (Note [Target runtime])."""
    paths, target = runtime.context.paths, runtime.context.target
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
        objects=tuple(
            LinkedSource(step.source, step.object, runtime.bucket(step.source)) for step in objects
        ),
        baseline_runner=None if baseline is None else paths.runner(baseline),
        prebuilt=runtime.prebuilt(),
        non_selective=runtime.non_selective(),
    )
