"""What the size stage reads, named by the caller: its inputs and the target's settings.

Kept apart from `codegen.size.stage`, which reads ELF files: the doit task that runs the
stage is made from these when the tasks load, and must not import the ELF code for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.manifest import Target
from selective_build.codegen.size.settings import TargetSettings


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
    prebuilt: tuple[Path, ...]  # libraries the runner loads that no selection trims
    # The library an app would link without selective build (codegen/size/prebuilt.py).
    non_selective: Path | None = None

    @property
    def settings(self) -> TargetSettings:
        """The target's settings the report records (size.json `config`)."""
        return TargetSettings.of(self.target)
