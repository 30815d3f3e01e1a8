"""Where a `runtime = "executorch"` target's ExecuTorch comes from, and whether it fits.

An install is a folder laid out as the `executorch` wheel's package folder: the runtime's
headers under `include/`, its prebuilt libraries under `lib/` (`libexecutorch.so`, one
`libexecutorch_backend_<name>.so` per backend), the release in `version.py`. It is found,
in this order, at a folder the manifest names, or as the `executorch` package the build's
own Python can import (a namespace package: `executorch.__file__` is None, its folder is
on the spec's search path). Nothing is downloaded: a missing install, an unsupported
release, or one built for another processor than the target's toolchain is one line
naming what to install.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from selective_build.codegen.errors import InputError
from selective_build.codegen.machine import elf_machine

SUPPORTED_VERSION = "1.5.1"
INSTALL_HINT = "install it with: pip install torch==2.13.0 executorch==1.5.1"
# What a cross target needs, for aarch64 Linux (the wheel of the same release, unpacked:
# its executorch/ folder is an install).
_CROSS_HINT = (
    "name an install built for {machine} as {setting} (for aarch64, the wheel of the same "
    "release: pip download --platform manylinux_2_28_aarch64 --only-binary=:all: "
    "--no-deps executorch==1.5.1, unpacked)"
)

RUNTIME_LIBRARY = "libexecutorch.so"
# The compile definitions the headers need (the install's executorch-config.cmake sets it).
DEFINES = ("C10_USING_CUSTOM_GENERATED_MACROS",)
# The backends a target can link, by the id a program's delegates name them with: the
# backend's library, then the libraries it needs beside it. Only backends whose programs
# this project verifies are listed.
BACKEND_LIBRARIES: dict[str, tuple[str, ...]] = {
    "XnnpackBackend": ("libexecutorch_backend_xnnpack.so", "libexecutorch_threadpool.so"),
}
# The library an app links without selective build: every portable and optimized kernel.
ALL_KERNELS_LIBRARY = "libexecutorch_kernels_optimized.so"

_VERSION = re.compile(r'^__version__\s*=\s*["\']([^"\']+)["\']', re.MULTILINE)


class InstallFiles(Protocol):
    """How the install's files are read: by the build's task creators, which stamp what
    they read (the plan's Disk), so another install or release reruns what it decided."""

    def files(self, folder: Path, suffix: str) -> list[Path]:
        """Every file below `folder` whose name ends with `suffix`, sorted."""
        ...

    def text(self, path: Path) -> str | None:
        """The file's text, None when it is not there."""
        ...


class PlainFiles:
    """InstallFiles straight from the file system (tests, scripts)."""

    def files(self, folder: Path, suffix: str) -> list[Path]:
        return sorted(p for p in folder.rglob(f"*{suffix}") if p.is_file())

    def text(self, path: Path) -> str | None:
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None


@dataclass(frozen=True)
class ExecutorchInstall:
    """One ExecuTorch install: its folder, release and what its lib/ holds."""

    root: Path
    version: str  # as the install spells it, "1.5.1+cpu"
    backends: tuple[str, ...]  # ids of BACKEND_LIBRARIES whose libraries are all present

    @property
    def include_dirs(self) -> tuple[Path, Path]:
        """The headers, and the c10 headers they include by their own name."""
        include = self.root / "include"
        return include, include / "executorch/runtime/core/portable_type/c10"

    @property
    def lib_dir(self) -> Path:
        return self.root / "lib"

    @property
    def runtime_library(self) -> Path:
        return self.lib_dir / RUNTIME_LIBRARY

    def backend_libraries(self, backend: str) -> tuple[Path, ...]:
        """The libraries linking `backend` takes, the backend's own first."""
        return tuple(self.lib_dir / name for name in BACKEND_LIBRARIES[backend])

    def compile_flags(self) -> tuple[str, ...]:
        return (*(f"-I{folder}" for folder in self.include_dirs), *(f"-D{d}" for d in DEFINES))


def find_executorch(
    folder: Path | None, setting: str, disk: InstallFiles | None = None
) -> ExecutorchInstall:
    """The install at `folder` (from the manifest key `setting`), else the `executorch`
    package of this Python; InputError when there is none or its release is unsupported."""
    disk = disk or PlainFiles()
    if folder is not None:
        if not _is_install(folder, disk):
            raise InputError(
                setting,
                f"{folder.resolve()} is not an ExecuTorch install (no "
                f"include/executorch/runtime and lib/{RUNTIME_LIBRARY}): name the executorch "
                "folder of an installed or "
                f"unpacked wheel, or {INSTALL_HINT}",
            )
        return _checked(folder, disk)
    found = _importable_package(disk)
    if found is None:
        raise InputError(
            "executorch",
            f"ExecuTorch's runtime was not found: {sys.executable} cannot import the "
            f"executorch package and the manifest names no install ({setting}); {INSTALL_HINT}",
        )
    return _checked(found, disk)


def check_machine(install: ExecutorchInstall, machine: str, target: str, setting: str) -> None:
    """InputError unless the install's runtime is built for `machine`, the processor the
    target's toolchain builds for (as `uname -m` names it); `setting` is the manifest key
    naming the toolchain's install."""
    built_for = elf_machine(install.runtime_library)
    if built_for != machine:
        raise InputError(
            f"target {target}",
            f"the ExecuTorch at {install.root} is built for {built_for}, the target's "
            f"toolchain builds for {machine}: "
            + _CROSS_HINT.format(machine=machine, setting=setting),
        )


def _importable_package(disk: InstallFiles) -> Path | None:
    """The folder of the `executorch` package this Python imports, if it holds an install."""
    try:
        spec = importlib.util.find_spec("executorch")
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    for location in spec.submodule_search_locations or ():
        if _is_install(Path(location), disk):
            return Path(location)
    return None


def _is_install(folder: Path, disk: InstallFiles) -> bool:
    headers = folder / "include/executorch/runtime/core/evalue.h"
    return disk.text(headers) is not None and folder / "lib" / RUNTIME_LIBRARY in _libraries(
        folder, disk
    )


def _libraries(folder: Path, disk: InstallFiles) -> list[Path]:
    return disk.files(folder / "lib", ".so")


def _checked(root: Path, disk: InstallFiles) -> ExecutorchInstall:
    version = _read_version(root, disk)
    if version.partition("+")[0] != SUPPORTED_VERSION:
        raise InputError(
            root,
            f"ExecuTorch {version} is not supported (this build supports "
            f"{SUPPORTED_VERSION}); {INSTALL_HINT}",
        )
    present = {path.name for path in _libraries(root, disk) if path.parent == root / "lib"}
    backends = tuple(
        backend
        for backend, names in sorted(BACKEND_LIBRARIES.items())
        if all(name in present for name in names)
    )
    return ExecutorchInstall(root.resolve(), version, backends)


def _read_version(root: Path, disk: InstallFiles) -> str:
    """The release the install's version.py names (read, not imported)."""
    text = disk.text(root / "version.py")
    match = None if text is None else _VERSION.search(text)
    if match is None:
        raise InputError(
            root, f"no version.py naming the ExecuTorch release of this install; {INSTALL_HINT}"
        )
    return match.group(1)
