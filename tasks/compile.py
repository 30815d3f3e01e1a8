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
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target, Toolchain
from codegen.render import per_source_dir
from tasks import layout
from tasks.actions import run_to_temporaries, temporary
from tasks.depfile import HeadersUnchanged

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


def target_objects(
    target: Target, toolchain: Toolchain, kernel_sources: list[Path]
) -> list[ObjectSpec]:
    """Every object the target's runner links, shared where Note [Shared objects] allows."""
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
    ]
    for source in sorted(kernel_sources):
        if target.dtype_selective:
            # Note [Per-source dtype headers]: this source's own selected_op_variants.h.
            flags = (*common, f"-I{gen / per_source_dir(source)}", DTYPE_SELECTIVE_DEFINE)
            objects.append(
                ObjectSpec(
                    source,
                    layout.object_path(layout.target_object_dir(target.name), source),
                    flags,
                    toolchain,
                )
            )
        else:
            objects.append(
                ObjectSpec(source, layout.object_path(shared_dir, source), common, toolchain)
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
