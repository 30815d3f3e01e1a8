"""Which objects a target links, compiled from which sources with which flags.

Note [Shared objects]
An object that reads no generated header (the runtime, and kernels of targets that are not
dtype-selective) depends only on its source, the headers it includes and the compile
command, so it lives under build/.obj/<toolchain>-<hash of the command>/ and is compiled
once for every target that uses the same toolchain and flags. Objects that include the
target's generated headers (its dtype selection) live under build/<target>/obj/: a target
has one toolchain, so that folder is keyed by everything that changes their bytes. Either
way the object's path below that folder comes from its source's (BuildPaths.object_path),
never beside the source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from codegen.manifest import OPTIMIZED, Library, Target, Toolchain
from codegen.plan.paths import BuildPaths
from codegen.plan.steps import CompileStep
from codegen.render import per_source_dir
from codegen.scalar_type import ScalarType

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

# Note [Constant folding at load] (runtime/executor/fold.h) costs the smallest runner a page,
# so only targets whose programs can prepare constant weights with a layout kernel (an
# nn.Linear exports as permute_copy of its weight) compile it in, by this define on the
# sources that read it.
FOLD_DEFINE = "-DRT_FOLD_CONSTANTS"
FOLDING_KERNELS = frozenset({"op_permute_copy.cpp", "op_t_copy.cpp", "op_transpose_copy.cpp"})
FOLDING_SOURCES = ("executor/instructions.cpp", "executor/method.cpp", "runner/main.cpp")

_SELECTED_MASK = re.compile(r"DtypeSet\((0x[0-9a-f]+)u\)")


def runtime_sources(paths: BuildPaths, sources: Iterable[Path]) -> list[Path]:
    """The runtime's translation units among `sources` (every .cpp below runtime/):
    size_app/ is the minimal app a library-only target is measured with, executorch/ the
    side of ExecuTorch's runtime (Note [ExecuTorch kernel adapter]), not ours."""
    other = (paths.size_app_source.parent, paths.runtime_dir / "executorch")
    return sorted(s for s in sources if not any(folder in s.parents for folder in other))


def bool_constants_source(paths: BuildPaths) -> Path:
    """The loader source whose Bool constant check depends on the dtype selection."""
    return paths.runtime_dir / "loader" / "values.cpp"


def selects_bool(header: str | None) -> bool:
    """Whether an operator of a dtype-selective target takes a Bool tensor, from the dtype
    masks of its generated selected_op_variants.h (codegen/render.py); with no header yet,
    the safe answer."""
    if header is None:
        return True
    masks = _SELECTED_MASK.findall(header)
    return any(int(mask, 16) >> ScalarType.Bool.number & 1 for mask in masks)


def common_flags(paths: BuildPaths, toolchain: Toolchain) -> tuple[str, ...]:
    return (*BASE_CFLAGS, *toolchain.cflags, f"-I{paths.source_root}")


def target_objects(
    paths: BuildPaths,
    target: Target,
    toolchain: Toolchain,
    runtime: Sequence[Path],
    kernel_sources: Iterable[Path],
    libraries: Iterable[Library] = (),
    bool_selected: bool = True,
) -> list[CompileStep]:
    """Every object the target's runner links, shared where Note [Shared objects] allows:
    `runtime` are the runtime's sources (runtime_sources), `bool_selected` whether the
    dtype-selective target selects a Bool operator (selects_bool). A kernel source of one of
    `libraries` compiles with that library's cflags too (Note [Library cflags],
    codegen/manifest.py)."""
    driver = toolchain.compile_command()
    common = common_flags(paths, toolchain)
    shared_dir = paths.shared_object_dir(toolchain.name, driver + common)
    gen = paths.gen_dir(target.name)
    folding = (*common, FOLD_DEFINE)
    folding_dir = paths.shared_object_dir(toolchain.name, driver + folding)
    kernels = sorted(kernel_sources)
    folds = any(source.name in FOLDING_KERNELS for source in kernels)
    bool_source = bool_constants_source(paths)
    objects = [
        CompileStep(s, paths.object_path(folding_dir, s), folding, driver)
        if folds and s.relative_to(paths.runtime_dir).as_posix() in FOLDING_SOURCES
        else CompileStep(s, paths.object_path(shared_dir, s), common, driver)
        for s in runtime
        if not (s == bool_source and target.dtype_selective)
    ]
    if target.dtype_selective:
        # Note [Bool constants] in runtime/loader/values.cpp: the check is compiled in only
        # when a selected operator takes Bool. One bit of the selection, on the command
        # line: the object is shared by every target with the same bit, and recompiled only
        # when the bit changes (not with every operator the target gains).
        bit = int(bool_selected)
        flags = (*common, f"-DRT_BOOL_CONSTANTS={bit}")
        # Beside the toolchain's other shared objects, named by the bit.
        shared = paths.object_path(shared_dir, bool_source)
        objects.append(
            CompileStep(bool_source, shared.with_name(f"{shared.stem}.bool{bit}.o"), flags, driver)
        )
    library_cflags = {library.sources: _library_flags(library, target) for library in libraries}
    for source in kernels:
        kernel_flags = (
            *BASE_CFLAGS,
            *toolchain.cflags,
            *library_cflags.get(source.parent, ()),
            f"-I{paths.source_root}",
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
    registration = gen / "selected_kernels.cpp"
    objects.append(
        CompileStep(
            registration,
            paths.target_object_dir(target.name) / "selected_kernels.o",
            (*common, f"-I{gen}"),
            driver,
        )
    )
    return objects


def _library_flags(library: Library, target: Target) -> tuple[str, ...]:
    """A library's own cflags, and for the optimized library the target's thread count
    (Note [Threads], kernels/optimized/parallel.h: one thread, the default, needs no define,
    so only the optimized objects of a threaded target are compiled apart)."""
    if library.name == OPTIMIZED and target.threads > 1:
        return (*library.cflags, f"-DOPT_THREADS={target.threads}")
    return library.cflags


def library_objects(paths: BuildPaths, objects: Sequence[CompileStep]) -> list[CompileStep]:
    """Every object but the runner's command line (runtime/runner/): the static library."""
    runner_sources = paths.runtime_dir / "runner"
    return [step for step in objects if runner_sources not in step.source.parents]


def unique_objects(objects: Iterable[CompileStep]) -> list[CompileStep]:
    """One step per distinct object, in first-seen order: a shared object is planned by
    every target that links it, and compiled once."""
    seen: dict[Path, CompileStep] = {}
    for step in objects:
        seen.setdefault(step.object, step)
    return list(seen.values())
