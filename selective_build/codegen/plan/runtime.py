"""The seam for target runtimes: what a stage asks of the runtime a target builds for.

Note [Target runtime]
A target's selected kernels are built into one runtime, named by its manifest key `runtime`
(default "ours": the C++ runtime under runtime/). Everything that depends on which runtime
it is sits behind `TargetRuntime`, one implementation per runtime (codegen/plan/ours.py),
chosen by name in one place (codegen/plan/runtimes.py); no stage compares a runtime's name
(tests/codegen/test_plan_runtime.py holds both). Per stage, the runtime answers:
  - codegen: which files to generate in gen/ and from which renderer (the registration the
    runtime's kernel table needs, and the dtype headers every runtime's kernels compile
    against: codegen/render.py render_dtype_headers);
  - compile: its own objects, before the kernels (its sources, include folders, defines),
    and its registration's objects, after them; the kernels themselves compile the same way
    for every runtime (codegen/plan/objects.py);
  - link: what follows the objects on the link line (a prebuilt library folder, libraries,
    rpath: nothing for ours, whose objects are all linked), which objects make the static
    library, and the minimal app a library-only target is measured with;
  - package: the package step (headers, library, CMake and pkg-config content);
  - verify: the command prefix and environment the runner runs with;
  - size: the bucket of each of its own objects, and the prebuilt libraries the runner loads
    (a non-selective part of what an app ships: none for ours);
  - selection: which delegate backends it can link (`provided_backends`), which the
    target's programs are held to before anything compiles;
  - and `record`: what of the runtime, beyond the steps' own commands, decides a stage's
    outputs, added to each per-target task's recorded settings (`uptodate`). Ours records
    nothing: the stages built it before runtimes were chosen, and its records stay as they
    were, so a build from before is still up to date.
A runtime is made per target from a `TargetContext`: what the plan knows of the target, and
a `Disk` the task creators hand in, through which it reads the few facts it needs (the
runtime's source files, a generated header, an install's folder), so the plan itself touches
no file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from selective_build.codegen.manifest import Target, Toolchain
from selective_build.codegen.plan.package import PackageStep
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.resolution import Resolution

# The codegen action's renderer: file name below gen/ -> text. A module-level function, so
# the action's arguments stay plain data (doit may hand them to another process).
Renderer = Callable[[Resolution], Mapping[str, str]]


class Disk(Protocol):
    """The files a runtime's plan may look at, read by the task creators (through the run's
    `Reads`, so a task definition made from a file is stamped: tasks/engine/evidence.py)."""

    def files(self, folder: Path, suffix: str) -> list[Path]:
        """Every file below `folder` whose name ends with `suffix`, sorted."""
        ...

    def text(self, path: Path) -> str | None:
        """The file's text, None when it is not there (yet)."""
        ...

    def compiler_machine(self, driver: tuple[str, ...]) -> str | None:
        """The processor a compiler builds for, as `uname -m` names it (from its
        `-dumpmachine`), None when it cannot tell: what a prebuilt library must match."""
        ...


@dataclass(frozen=True)
class TargetContext:
    """What a runtime is made from: one target, with its toolchain and the build's paths."""

    paths: BuildPaths
    target: Target
    toolchain: Toolchain
    disk: Disk


class TargetRuntime(Protocol):
    """Note [Target runtime]: one target's runtime, as every stage asks it."""

    @property
    def context(self) -> TargetContext: ...

    def record(self) -> Mapping[str, str]:
        """Added to the recorded settings of the target's codegen, package, verify and size
        tasks (ours: nothing)."""
        ...

    # codegen
    def generated_files(self) -> tuple[str, ...]:
        """The files below gen/ the renderer always writes (the codegen task's targets)."""
        ...

    def renderer(self) -> Renderer: ...

    # compile
    def runtime_objects(self, kernel_sources: Sequence[Path]) -> list[CompileStep]:
        """The runtime's own objects, linked before the kernels."""
        ...

    def registration_objects(self) -> list[CompileStep]:
        """The generated registration's objects, linked after the kernels."""
        ...

    # link
    def link_libraries(self) -> tuple[str, ...]:
        """What the link line takes after the objects: library folders, libraries, rpath."""
        ...

    def library_objects(self, objects: Sequence[CompileStep]) -> list[CompileStep]:
        """The objects of the static library an app links: all but the runner's own."""
        ...

    def size_app_objects(self) -> tuple[CompileStep, CompileStep]:
        """The minimal app a library-only target is measured with: (without, with) the
        library's calls (Note [Library-only size], tasks/size.py)."""
        ...

    # package
    def package(self, version: str) -> PackageStep: ...

    # verify
    def run_prefix(self) -> tuple[str, ...]:
        """The command prefix the runner runs behind here (an emulator, or nothing)."""
        ...

    def run_environment(self) -> tuple[tuple[str, str], ...]:
        """Variables added to the runner's environment (LD_LIBRARY_PATH, ...)."""
        ...

    # size
    def bucket(self, source: Path) -> str | None:
        """The size bucket of an object of the runtime's own (runtime_objects,
        registration_objects); None for a kernel's, which the resolution buckets."""
        ...

    def prebuilt(self) -> tuple[Path, ...]:
        """The prebuilt libraries the runner loads: no selective build trims them."""
        ...

    def non_selective(self) -> Path | None:
        """The prebuilt library an app would link for its kernels without selective build
        (ExecuTorch's all-operators library), which the size report compares the target's
        kernels with; None: there is none."""
        ...

    # selection
    def provided_backends(self) -> frozenset[str] | None:
        """The delegate backends the runtime can link (codegen/backends.py), None when it
        runs no delegate at all; the selection stage holds the target's models to it."""
        ...
