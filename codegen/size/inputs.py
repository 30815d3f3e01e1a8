"""What the size stage reads, named by the caller: its inputs and the target's settings.

Kept apart from `codegen.size.stage`, which reads ELF files: the doit task that runs the
stage is made from these when the tasks load, and must not import the ELF code for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.manifest import Model, Target


@dataclass(frozen=True)
class Linked:
    """A linked executable: the stripped file measured, the unstripped one's symbols."""

    stripped: Path
    unstripped: Path


@dataclass(frozen=True)
class LinkedSource:
    """One object of the link and the source it was compiled from."""

    source: Path
    object: Path
    # The runtime's bucket for an object of its own (Note [Target runtime],
    # codegen/plan/runtime.py); None: a kernel's, which the resolution buckets.
    bucket: str | None


@dataclass(frozen=True)
class SizeInputs:
    """Every file the size stage reads, and the settings it reports."""

    target: Target
    objects: tuple[LinkedSource, ...]  # in link order
    # The runner; for a library-only target the minimal app with and without the library.
    linked: Linked | tuple[Linked, Linked]
    library: Path  # the target's static library
    resolution: Path
    provenance: Path
    estimate: Path  # codegen's size_estimate.json (advisory: may be stale or missing)
    previous: Path  # the target's last size.json (may be missing)
    baseline_runner: Path | None
    model_files: Mapping[str, tuple[str, ...]]  # .pte file name -> the target's models


def size_config(target: Target) -> dict[str, Any]:
    """The target's settings a size diff reports when they change (`runner` only for a
    library-only target: a runner's config stays as it always was)."""
    library_only = {} if target.runner else {"runner": False}
    return library_only | {
        "models": list(target.models),
        "libraries": list(target.libraries),
        "extra_ops": [str(op) for op in target.extra_ops],
        "op_dtypes": {op: list(items) for op, items in sorted(target.op_dtypes.items())},
        "include_all_operators": target.include_all_operators,
        "dtype_selective": target.dtype_selective,
        "toolchain": target.toolchain,
    }


def model_files(target: Target, models: Mapping[str, Model]) -> dict[str, tuple[str, ...]]:
    """The target's models by `.pte` file name, the name the selection records them by."""
    files: dict[str, list[str]] = {}
    for model in target.models:
        files.setdefault(models[model].path.name, []).append(model)
    return {name: tuple(names) for name, names in sorted(files.items())}
