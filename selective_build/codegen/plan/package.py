"""A target's package step: build/<target>/package/, what an app builds against.

include/runtime/...   the runtime's headers (not the runner's)
include/selective/    the target's generated headers
lib/libselective_<target>.a, lib/cmake/selective_<target>/, lib/pkgconfig/selective_<target>.pc
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.package import GENERATED_INCLUDE, PackageInfo, package_files
from selective_build.codegen.plan.paths import BuildPaths

GENERATED_HEADERS = ("selected_op_variants.h", "selected_registry_size.h")


@dataclass(frozen=True)
class PackageStep:
    info: PackageInfo
    folder: Path
    copies: tuple[tuple[Path, Path], ...]  # (path below the folder, the file copied there)
    # (path below the folder, its text): the CMake and pkg-config files, as the runtime
    # writes them (Note [Target runtime], codegen/plan/runtime.py).
    written: tuple[tuple[Path, str], ...]

    @property
    def inputs(self) -> list[Path]:
        return [source for _, source in self.copies]

    @property
    def outputs(self) -> list[Path]:
        paths = [path for path, _ in self.copies] + [path for path, _ in self.written]
        return [self.folder / path for path in paths]


def package_step(
    paths: BuildPaths, target: str, version: str, runtime_headers: Iterable[Path]
) -> PackageStep:
    """`runtime_headers`: every .h below runtime/ (the runner's, and ExecuTorch's side of
    runtime/executorch/, are left out here)."""
    runtime = paths.runtime_dir
    other = (runtime / "runner", runtime / "executorch")
    copies = [
        (Path("include") / "runtime" / header.relative_to(runtime), header)
        for header in sorted(runtime_headers)
        if not any(folder in header.parents for folder in other)
    ]
    for name in GENERATED_HEADERS:
        copies.append((Path("include") / GENERATED_INCLUDE / name, paths.gen_dir(target) / name))
    info = PackageInfo(target, version)
    copies.append((Path("lib") / info.library_file, paths.runtime_library(target)))
    written = tuple((Path(path), text) for path, text in package_files(info).items())
    return PackageStep(info, paths.package_dir(target), tuple(copies), written)
