"""A target's verify step: run every model on the runner and compare with its references.
A library-only target has no runner: its step runs nothing and records why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen.manifest import Model, Target, Toolchain
from codegen.plan.paths import BuildPaths


@dataclass(frozen=True)
class VerifyStep:
    target: str
    runner: Path | None  # None: a library-only target, nothing runs
    models: tuple[Model, ...]
    toolchain: str  # the runner's
    emulator: tuple[str, ...]  # the command prefix that runs the runner here
    output: Path  # verify.json

    @property
    def inputs(self) -> list[Path]:
        """The runner and every model's program, inputs and reference outputs."""
        if self.runner is None:
            return []
        references = [p for m in self.models for p in (m.path, *m.inputs, *m.outputs)]
        return [self.runner, *references]


def verify_step(
    paths: BuildPaths, target: Target, toolchain: Toolchain, models: Sequence[Model]
) -> VerifyStep:
    runner = paths.runner(target.name) if target.runner else None
    output = paths.verify_json(target.name)
    return VerifyStep(
        target.name, runner, tuple(models), toolchain.name, toolchain.emulator, output
    )
