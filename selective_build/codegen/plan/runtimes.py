"""Which implementation each runtime a manifest may name has (Note [Target runtime],
codegen/plan/runtime.py): the one place a runtime is chosen by its name."""

from __future__ import annotations

from collections.abc import Callable

from selective_build.codegen.manifest import EXECUTORCH, OURS
from selective_build.codegen.plan.executorch import ExecutorchRuntime
from selective_build.codegen.plan.ours import OurRuntime
from selective_build.codegen.plan.runtime import TargetContext, TargetRuntime

# Every name of codegen/manifest/model.py's RUNTIMES, and no other.
IMPLEMENTATIONS: dict[str, Callable[[TargetContext], TargetRuntime]] = {
    OURS: OurRuntime,
    EXECUTORCH: ExecutorchRuntime,
}


def target_runtime(context: TargetContext) -> TargetRuntime:
    """The runtime `context.target` builds for (the manifest checked its name)."""
    return IMPLEMENTATIONS[context.target.runtime](context)
