"""A target's runtime (Note [Target runtime], codegen/plan/runtime.py) as the task creators
make it: with this run's paths, reading what it needs through the run's `Reads`."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from codegen.errors import InputError
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
    """The runtime `target` builds for with its `toolchain`; one that cannot be made (no
    ExecuTorch install for an `executorch` target, say) ends doit with one line."""
    context = TargetContext(layout.paths(), target, toolchain, ReadsDisk(reads))
    try:
        return target_runtime(context)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
