"""A target's runtime (Note [Target runtime], codegen/plan/runtime.py) as the task creators
make it: with this run's paths, reading what it needs through the run's `Reads`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codegen.manifest import Target, Toolchain
from codegen.plan.runtime import TargetContext, TargetRuntime
from codegen.plan.runtimes import target_runtime
from tasks import layout
from tasks.engine.evidence import Reads


@dataclass(frozen=True)
class ReadsDisk:
    """A runtime's `Disk`: a file a task definition is made from is read through `Reads`
    (stamped: Note [Up-to-date stamp] in tasks/engine/stamp.py)."""

    reads: Reads

    def files(self, folder: Path, suffix: str) -> list[Path]:
        return sorted(folder.rglob(f"*{suffix}"))

    def text(self, path: Path) -> str | None:
        return self.reads.text(path)


def runtime_of(target: Target, toolchain: Toolchain, reads: Reads) -> TargetRuntime:
    """The runtime `target` builds for with its `toolchain`."""
    return target_runtime(TargetContext(layout.paths(), target, toolchain, ReadsDisk(reads)))
