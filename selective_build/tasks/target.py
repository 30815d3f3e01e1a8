"""What a per-target stage's task is made from (tasks/stages.py): the target's runtime (Note
[Target runtime], codegen/plan/runtime.py) and the objects it links. tasks/backend.py makes
one per target once codegen has resolved it."""

from __future__ import annotations

from dataclasses import dataclass

from selective_build.codegen.manifest import Manifest, Target
from selective_build.codegen.plan.runtime import TargetRuntime
from selective_build.codegen.plan.steps import CompileStep


@dataclass(frozen=True)
class TargetPlan:
    manifest: Manifest
    runtime: TargetRuntime
    objects: tuple[CompileStep, ...]  # a library-only target: its library's

    @property
    def target(self) -> Target:
        return self.runtime.context.target
