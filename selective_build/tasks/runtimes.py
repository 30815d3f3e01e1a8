"""A target's runtime (Note [Target runtime], codegen/plan/runtime.py) as the task creators
make it: with this run's paths, reading what it needs through the run's `Reads`."""

from __future__ import annotations

import functools
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest import Target, Toolchain
from selective_build.codegen.plan.runtime import TargetContext, TargetRuntime
from selective_build.codegen.plan.runtimes import target_runtime
from selective_build.tasks import layout
from selective_build.tasks.engine.evidence import Reads


@dataclass(frozen=True)
class ReadsDisk:
    """A runtime's `Disk`: a file a task definition is made from is read through `Reads`
    (stamped: Note [Up-to-date stamp] in tasks/engine/stamp.py)."""

    reads: Reads

    def files(self, folder: Path, suffix: str) -> list[Path]:
        return sorted(folder.rglob(f"*{suffix}"))

    def text(self, path: Path) -> str | None:
        return self.reads.text(path)

    def compiler_machine(self, driver: tuple[str, ...]) -> str | None:
        return compiler_machine(driver)


@functools.cache
def compiler_machine(driver: tuple[str, ...]) -> str | None:
    """The first part of the compiler's target triple (`x86_64-linux-gnu` -> x86_64), once
    per run and compiler."""
    try:
        result = subprocess.run(
            [*driver, "-dumpmachine"], capture_output=True, text=True, timeout=60, check=False
        )
    except OSError:
        return None  # no such compiler: its compile step says so
    triple = result.stdout.strip()
    return triple.split("-")[0] if result.returncode == 0 and triple else None


def runtime_of(target: Target, toolchain: Toolchain, reads: Reads) -> TargetRuntime:
    """The runtime `target` builds for with its `toolchain`; one that cannot be made (no
    ExecuTorch install for an `executorch` target, say) ends doit with one line."""
    context = TargetContext(layout.paths(), target, toolchain, ReadsDisk(reads))
    try:
        return target_runtime(context)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
