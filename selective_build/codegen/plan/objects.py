"""Which objects a target links, compiled from which sources with which flags.

Note [Shared objects]
An object that reads no generated header (the runtime, and kernels of targets that are not
dtype-selective) depends only on its source, the headers it includes and the compile
command, so it lives under build/.obj/<toolchain>-<hash of the command>/ and is compiled
once for every target that uses the same toolchain and flags. Objects that include the
target's generated headers (its dtype selection) live under build/<target>/obj/: a target
has one toolchain, so that folder is keyed by everything that changes their bytes. Either
way the object's path below that folder comes from its source's (BuildPaths.object_path),
never beside the source. Every kernel also reads the declared_op_dtypes.h of its source
(Note [Declared dtypes], codegen/declared_dtypes.py), which depends on its library alone:
it lives under build/.libraries/<library>/, where the codegen of every target compiling
the source writes the same bytes, so it keeps no object from being shared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from selective_build.codegen.isa import isa_flags
from selective_build.codegen.manifest import OPTIMIZED, Library, Target, Toolchain
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.runtime import TargetRuntime
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.render import per_source_dir

# The runtime is written for these: no exceptions, no RTTI, sections the linker can drop.
BASE_CFLAGS = (
    "-std=c++17",
    "-ffunction-sections",
    "-fdata-sections",
    "-fno-exceptions",
    "-fno-rtti",
    "-fno-asynchronous-unwind-tables",
    "-fno-threadsafe-statics",
    "-Wall",
    "-Wextra",
)
DTYPE_SELECTIVE_DEFINE = "-DRT_DTYPE_SELECTIVE"


def common_flags(paths: BuildPaths, toolchain: Toolchain) -> tuple[str, ...]:
    return (*BASE_CFLAGS, *toolchain.cflags, f"-I{paths.source_root}")


def target_objects(
    runtime: TargetRuntime,
    kernel_sources: Iterable[Path],
    libraries: Sequence[Library] = (),
) -> list[CompileStep]:
    """Every object the target's runner links, in link order: the runtime's own (Note
    [Target runtime], codegen/plan/runtime.py), the kernels, the runtime's registration."""
    kernels = sorted(kernel_sources)
    return [
        *runtime.runtime_objects(kernels),
        *kernel_objects(
            runtime.context.paths,
            runtime.context.target,
            runtime.context.toolchain,
            kernels,
            libraries,
        ),
        *runtime.registration_objects(),
    ]


def kernel_objects(
    paths: BuildPaths,
    target: Target,
    toolchain: Toolchain,
    kernels: Sequence[Path],
    libraries: Sequence[Library] = (),
) -> list[CompileStep]:
    """The kernels' objects, the same for every runtime, shared where Note [Shared objects]
    allows. A kernel source of one of `libraries` compiles with that library's cflags too
    (Note [Library cflags], codegen/manifest/__init__.py)."""
    driver = toolchain.compile_command()
    gen = paths.gen_dir(target.name)
    library_cflags = {
        library.sources: _library_flags(library, target, toolchain) for library in libraries
    }
    objects = []
    for source in kernels:
        kernel_flags = (
            *BASE_CFLAGS,
            *toolchain.cflags,
            *library_cflags.get(source.parent, ()),
            f"-I{paths.source_root}",
            *_declared_include(paths, libraries, source),
        )
        if target.dtype_selective:
            # Note [Per-source dtype headers]: this source's own selected_op_variants.h.
            flags = (*kernel_flags, f"-I{gen / per_source_dir(source)}", DTYPE_SELECTIVE_DEFINE)
            folder = paths.target_object_dir(target.name)
            objects.append(CompileStep(source, paths.object_path(folder, source), flags, driver))
        else:
            folder = paths.shared_object_dir(toolchain.name, driver + kernel_flags)
            objects.append(
                CompileStep(source, paths.object_path(folder, source), kernel_flags, driver)
            )
    return objects


def _declared_include(
    paths: BuildPaths, libraries: Sequence[Library], source: Path
) -> tuple[str, ...]:
    """The folder of the source's declared_op_dtypes.h, from the library whose sources it
    is (Note [Shared objects])."""
    for library in libraries:
        if library.sources == source.parent:
            return (f"-I{paths.declared_dtypes_header(library.name, source).parent}",)
    return ()


def _library_flags(library: Library, target: Target, toolchain: Toolchain) -> tuple[str, ...]:
    """A library's own cflags; for the optimized library also the toolchain's instruction
    set (Note [Instruction sets], codegen/isa.py) and the target's thread count (Note
    [Threads], kernels/optimized/parallel.h: one thread, the default, needs no define, so
    only the optimized objects of a threaded target are compiled apart)."""
    if library.name != OPTIMIZED:
        return library.cflags
    threads = (f"-DOPT_THREADS={target.threads}",) if target.threads > 1 else ()
    return (*isa_flags(toolchain.isa), *library.cflags, *threads)


def unique_objects(objects: Iterable[CompileStep]) -> list[CompileStep]:
    """One step per distinct object, in first-seen order: a shared object is planned by
    every target that links it, and compiled once."""
    seen: dict[Path, CompileStep] = {}
    for step in objects:
        seen.setdefault(step.object, step)
    return list(seen.values())
