"""Stage 4: one compile task per translation unit, with exact dependencies.

Note [Shared objects]
An object that reads no generated header (the runtime, and kernels of targets that are not
dtype-selective) depends only on its source, the headers it includes and the compile
command, so it lives under build/.obj/<toolchain>-<hash of the command>/ and is compiled
once for every target that uses the same toolchain and flags. Objects that include the
target's generated headers (its dtype selection) live under build/<target>/obj/: a target
has one toolchain, so that folder is keyed by everything that changes their bytes. Either
way the object's path below that folder comes from its source's (layout.object_path),
never beside the source.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import OPTIMIZED, Library, Target, Toolchain
from codegen.render import per_source_dir
from codegen.scalar_type import ScalarType
from tasks import layout
from tasks.actions import run_to_temporaries, temporary
from tasks.depfile import HeadersUnchanged
from tasks.stamp import DEFINITIONS

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


@dataclass(frozen=True)
class ObjectSpec:
    source: Path
    object: Path
    flags: tuple[str, ...]
    toolchain: Toolchain

    @property
    def depfile(self) -> Path:
        return self.object.with_suffix(".d")

    def command(self, object_path: Path | None = None, depfile: Path | None = None) -> list[str]:
        """The compile command, writing to the given paths (default: the final ones).

        The depfile's rule names the final object (`-MT`) whatever path the object is
        written to first: the temporary's name holds the process id, so two builds would
        write different depfiles for the same object."""
        return [
            *self.toolchain.compile_command(),
            *self.flags,
            "-c",
            str(self.source),
            "-o",
            str(object_path or self.object),
            "-MMD",
            "-MT",
            str(self.object),
            "-MF",
            str(depfile or self.depfile),
        ]


def runtime_sources() -> list[Path]:
    # size_app/ is the minimal app a library-only target is measured with, not runtime.
    size_app = layout.size_app_source().parent
    return sorted(s for s in layout.runtime_dir().rglob("*.cpp") if size_app not in s.parents)


def bool_constants_source() -> Path:
    """The loader source whose Bool constant check depends on the dtype selection."""
    return layout.runtime_dir() / "loader" / "values.cpp"


_SELECTED_MASK = re.compile(r"DtypeSet\((0x[0-9a-f]+)u\)")


def selects_bool(target: Target) -> bool:
    """Whether an operator of the dtype-selective `target` takes a Bool tensor, from the
    dtype masks of its generated selected_op_variants.h (codegen/render.py)."""
    header = layout.gen_dir(target.name) / "selected_op_variants.h"
    if DEFINITIONS.stat(str(header)) is None:  # a task definition is made from it
        return True
    masks = _SELECTED_MASK.findall(header.read_text(encoding="utf-8"))
    return any(int(mask, 16) >> ScalarType.Bool.number & 1 for mask in masks)


def target_objects(
    target: Target,
    toolchain: Toolchain,
    kernel_sources: list[Path],
    libraries: Iterable[Library] = (),
) -> list[ObjectSpec]:
    """Every object the target's runner links, shared where Note [Shared objects] allows.
    A kernel source of one of `libraries` compiles with that library's cflags too (Note
    [Library cflags], codegen/builtin_libraries.py)."""
    common = (*BASE_CFLAGS, *toolchain.cflags, f"-I{layout.source_root()}")
    shared_dir = layout.shared_object_dir(toolchain, common)
    gen = layout.gen_dir(target.name)
    with_gen = (*common, f"-I{gen}")
    folding = (*common, FOLD_DEFINE)
    folding_dir = layout.shared_object_dir(toolchain, folding)
    folds = any(source.name in FOLDING_KERNELS for source in kernel_sources)
    runtime = layout.runtime_dir()
    objects = [
        ObjectSpec(s, layout.object_path(folding_dir, s), folding, toolchain)
        if folds and s.relative_to(runtime).as_posix() in FOLDING_SOURCES
        else ObjectSpec(s, layout.object_path(shared_dir, s), common, toolchain)
        for s in runtime_sources()
        if not (s == bool_constants_source() and target.dtype_selective)
    ]
    if target.dtype_selective:
        # Note [Bool constants] in runtime/loader/values.cpp: the check is compiled in only
        # when a selected operator takes Bool. One bit of the selection, on the command
        # line: the object is shared by every target with the same bit, and recompiled only
        # when the bit changes (not with every operator the target gains).
        bit = int(selects_bool(target))
        flags = (*common, f"-DRT_BOOL_CONSTANTS={bit}")
        source = bool_constants_source()
        # Beside the toolchain's other shared objects, named by the bit.
        shared = layout.object_path(shared_dir, source)
        path = shared.with_name(f"{shared.stem}.bool{bit}.o")
        objects.append(ObjectSpec(source, path, flags, toolchain))
    library_cflags = {library.sources: _library_flags(library, target) for library in libraries}
    for source in sorted(kernel_sources):
        kernel_flags = (
            *BASE_CFLAGS,
            *toolchain.cflags,
            *library_cflags.get(source.parent, ()),
            f"-I{layout.source_root()}",
        )
        if target.dtype_selective:
            # Note [Per-source dtype headers]: this source's own selected_op_variants.h.
            flags = (*kernel_flags, f"-I{gen / per_source_dir(source)}", DTYPE_SELECTIVE_DEFINE)
            objects.append(
                ObjectSpec(
                    source,
                    layout.object_path(layout.target_object_dir(target.name), source),
                    flags,
                    toolchain,
                )
            )
        else:
            folder = layout.shared_object_dir(toolchain, kernel_flags)
            objects.append(
                ObjectSpec(source, layout.object_path(folder, source), kernel_flags, toolchain)
            )
    registration = gen / "selected_kernels.cpp"
    objects.append(
        ObjectSpec(
            registration,
            layout.target_object_dir(target.name) / "selected_kernels.o",
            with_gen,
            toolchain,
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


def compile_object(spec: ObjectSpec) -> bool:
    command = spec.command(temporary(spec.object), temporary(spec.depfile))
    return run_to_temporaries(command, [spec.object, spec.depfile])


@functools.cache
def installed(program: str) -> tuple[Path, ...]:
    """The file `program` runs, symlinks resolved (none when it is not installed: running
    it fails with one line). As a `file_dep` it rebuilds what it made when the compiler
    is upgraded or `c++` is pointed at another one."""
    found = shutil.which(program)
    return (Path(os.path.realpath(found)),) if found else ()


def compile_tasks(specs: Iterable[ObjectSpec]) -> Iterator[dict[str, Any]]:
    """One task per distinct object (a shared object appears once)."""
    seen: set[Path] = set()
    for spec in specs:
        if spec.object in seen:
            continue
        seen.add(spec.object)
        yield {
            "basename": "compile",
            "name": str(spec.object),
            "actions": [(compile_object, [spec])],
            "file_dep": [spec.source, *installed(spec.toolchain.compiler)],
            "targets": [spec.object, spec.depfile],
            "uptodate": [config_changed(" ".join(spec.command())), HeadersUnchanged(spec.depfile)],
            "clean": True,
        }
