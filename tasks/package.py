"""`package:<target>`: build/<target>/package/, what an app builds against.

include/runtime/...   the runtime's headers (not the runner's)
include/selective/    the target's generated headers
lib/libselective_runtime.a, lib/cmake/SelectiveRuntime/, lib/pkgconfig/selective-runtime.pc
"""

from __future__ import annotations

import functools
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target
from codegen.package import GENERATED_INCLUDE, LIBRARY_FILE, PackageInfo, package_files
from codegen.writer import write_if_changed
from tasks import layout
from tasks.code_deps import code_closure

GENERATED_HEADERS = ("selected_op_variants.h", "selected_registry_size.h")


@functools.cache
def package_version() -> str:
    try:
        return version("selective-build")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "0.0.0"


def copied_files(target: str) -> dict[Path, Path]:
    """Path below the package folder -> the file copied there."""
    runtime = layout.runtime_dir()
    runner = runtime / "runner"
    copies = {
        Path("include") / "runtime" / header.relative_to(runtime): header
        for header in sorted(runtime.rglob("*.h"))
        if runner not in header.parents
    }
    for name in GENERATED_HEADERS:
        copies[Path("include") / GENERATED_INCLUDE / name] = layout.gen_dir(target) / name
    copies[Path("lib") / LIBRARY_FILE] = layout.runtime_library(target)
    return copies


def write_package(target: str, info: PackageInfo, copies: dict[Path, Path]) -> None:
    folder = layout.package_dir(target)
    written = {folder / path for path in copies} | {folder / p for p in package_files(info)}
    for path, source in copies.items():
        write_if_changed(folder / path, source.read_bytes())
    for name, text in package_files(info).items():
        write_if_changed(folder / name, text)
    # A header removed from the runtime leaves the package too.
    for stale in [p for p in folder.rglob("*") if p.is_file() and p not in written]:
        stale.unlink()


def package_task(target: Target) -> dict[str, Any]:
    info = PackageInfo(target.name, package_version())
    copies = copied_files(target.name)
    folder = layout.package_dir(target.name)
    return {
        "basename": "package",
        "name": target.name,
        "actions": [(write_package, [target.name, info, copies])],
        "file_dep": [
            *copies.values(),
            *code_closure(__name__),
        ],
        # Tasks created after codegen see no implicit dependencies (doit notes, 2.2).
        "task_dep": [f"link:{target.name}"],
        "targets": [*(folder / p for p in copies), *(folder / p for p in package_files(info))],
        "uptodate": [config_changed({"target": target.name, "version": info.version})],
        "clean": True,
    }
