"""This run's build folder and the code we ship, and from them this run's `BuildPaths`
(codegen/plan/paths.py), where every path is spelled (doit matches `file_dep` to `targets`
by exact string, so one spelling matters).

Note [Build folder]
A manifest's outputs live in build/ beside it (a top-level `build = "DIR"` key in the
manifest, relative to it, or `doit build=DIR` moves them), so manifests in different
folders never share, overwrite or clean each other's files. Two manifests in one folder
would both resolve to its build/: the folder records which manifest it belongs to
(build/.manifest, written by the first run that uses it), and any other manifest that
resolves to it stops with one line before it reads, writes or deletes anything there
(tasks/engine/lock.py). Inside, build/<target>/ is a
target's; the engine's own files and folders start with a dot (`.obj`, `.models`,
`.doit.sqlite3`), which no target name can (codegen/manifest/__init__.py), so no target can land
in them. Paths are relative to the working folder when they lie inside it (the default
manifest builds with the same short paths as always), absolute otherwise.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from doit import get_var

from selective_build.codegen.plan.paths import BuildPaths
from selective_build.tasks.config import manifest_path


def local(path: Path) -> Path:
    """`path` relative to the working folder when it lies inside it, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(os.getcwd())
    except ValueError:
        return absolute


@functools.cache
def _source_root(cwd: str) -> Path:
    return local(Path(__file__).resolve().parent.parent)


def source_root() -> Path:
    """The folder holding codegen/, tasks/, runtime/ and kernels/: the repository, or
    site-packages for an installed copy (the wheel keeps the same layout)."""
    return _source_root(os.getcwd())


def build() -> Path:
    """The build folder (Note [Build folder]): `build=DIR` on the command line, else the
    manifest's `build` key, else build/ beside the manifest."""
    return _build(get_var("build", ""), str(manifest_path()), os.getcwd())


@functools.cache
def _build(chosen: str, manifest: str, cwd: str) -> Path:
    from selective_build.codegen.build_folder import check_build_folder, manifest_build_folder
    from selective_build.codegen.errors import InputError

    # A bad `build` key, or a folder holding the sources (Note [Build folder apart from its
    # sources], codegen/build_folder.py): one line, before anything is read or written.
    try:
        named = None if chosen else manifest_build_folder(Path(manifest))
        folder = local(Path(chosen) if chosen else named or Path(manifest).parent / "build")
        shipped = [source_root() / part for part in ("codegen", "tasks", "runtime", "kernels")]
        given = f"build={chosen} (command line)" if chosen else "build"
        check_build_folder(folder, Path(manifest), given, shipped)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    return folder


def paths() -> BuildPaths:
    """Every output path of this run (codegen/plan/paths.py): the build folder, the code we
    ship and the working folder, from the command line and the manifest."""
    return BuildPaths(build(), source_root(), Path(os.getcwd()))


# The engine's shorthands (tasks/engine/): the paths themselves are BuildPaths'.


def owner_record() -> Path:
    return paths().owner_record


def dep_file() -> Path:
    return paths().dep_file


def lock_file() -> Path:
    return paths().lock_file


def digest_cache() -> Path:
    return paths().digest_cache


def up_to_date_stamp() -> Path:
    return paths().up_to_date_stamp


def engine_files() -> list[Path]:
    return paths().engine_files


def size_reports() -> list[Path]:
    """The size report of every target built in the build folder, read back as history by
    later builds (Note [Size estimate])."""
    return sorted(build().glob("*/size.json"))


def declared_dtypes_headers() -> list[Path]:
    """The dtype headers codegen writes per kernel source of a library, shared by every
    target using it (BuildPaths.declared_dtypes_header), as the build folder holds them."""
    header = paths().declared_dtypes_header("library", Path("source.cpp"))
    return sorted(header.parents[2].glob(f"*/*/{header.name}"))


def verify_outputs(target: str) -> Path:
    return paths().verify_outputs(target)


def tasks_dir() -> Path:
    return paths().tasks_dir


def codegen_dir() -> Path:
    return paths().codegen_dir


def runtime_dir() -> Path:
    return paths().runtime_dir
