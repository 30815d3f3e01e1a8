"""A target's verify step: run every model on the runner and compare with its references.
A library-only target has no runner: its step runs nothing and records why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.manifest import Model
from selective_build.codegen.plan.runtime import TargetRuntime


@dataclass(frozen=True)
class VerifyStep:
    target: str
    runner: Path | None  # None: a library-only target, nothing runs
    models: tuple[Model, ...]
    toolchain: str  # the runner's
    emulator: tuple[str, ...]  # the command prefix that runs the runner here
    output: Path  # verify.json
    environment: tuple[tuple[str, str], ...] = ()  # added to the runner's environment

    @property
    def inputs(self) -> list[Path]:
        """The runner and every model's program, inputs and reference outputs."""
        if self.runner is None:
            return []
        references = [p for m in self.models for p in (m.path, *m.inputs, *m.outputs)]
        return [self.runner, *references]


def verify_step(runtime: TargetRuntime, models: Sequence[Model]) -> VerifyStep:
    """The runner run as the runtime runs it (Note [Target runtime])."""
    paths, target = runtime.context.paths, runtime.context.target
    return VerifyStep(
        target=target.name,
        runner=paths.runner(target.name) if target.runner else None,
        models=tuple(models),
        toolchain=runtime.context.toolchain.name,
        emulator=runtime.run_prefix(),
        output=paths.verify_json(target.name),
        environment=runtime.run_environment(),
    )
