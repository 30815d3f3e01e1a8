"""Where every build output lives, and where the code and sources we ship are: all paths
come from here (doit matches `file_dep` to `targets` by exact string, so one spelling
matters).

Note [Build folder]
A manifest's outputs live in build/ beside it (a top-level `build = "DIR"` key in the
manifest, relative to it, or `doit build=DIR` moves them), so manifests in different
folders never share, overwrite or clean each other's files. Two manifests in one folder
would both resolve to its build/: the folder records which manifest it belongs to
(build/.manifest, written by the first run that uses it), and any other manifest that
resolves to it stops with one line before it reads, writes or deletes anything there
(tasks/engine/lock.py). Inside, build/<target>/ is a
target's; the engine's own files and folders start with a dot (`.obj`, `.models`,
`.doit.sqlite3`), which no target name can (codegen/manifest.py), so no target can land
in them. Paths are relative to the working folder when they lie inside it (the default
manifest builds with the same short paths as always), absolute otherwise.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from doit import get_var

from codegen.plan.paths import BuildPaths
from tasks.config import manifest_path


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


def codegen_dir() -> Path:
    return source_root() / "codegen"


def tasks_dir() -> Path:
    return source_root() / "tasks"


def runtime_dir() -> Path:
    return paths().runtime_dir


def builtin_kernels_dir() -> Path:
    return source_root() / "kernels"


def build() -> Path:
    """The build folder (Note [Build folder]): `build=DIR` on the command line, else the
    manifest's `build` key, else build/ beside the manifest."""
    return _build(get_var("build", ""), str(manifest_path()), os.getcwd())


@functools.cache
def _build(chosen: str, manifest: str, cwd: str) -> Path:
    if chosen:
        return local(Path(chosen))
    from codegen.build_folder import manifest_build_folder
    from codegen.errors import InputError

    try:
        named = manifest_build_folder(Path(manifest))
    except InputError as error:  # a bad `build` key: before anything is read or written
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    return local(named if named is not None else Path(manifest).parent / "build")


def paths() -> BuildPaths:
    """Every output path of this run (codegen/plan/paths.py): the build folder, the code we
    ship and the working folder, from the command line and the manifest."""
    return BuildPaths(build(), source_root(), Path(os.getcwd()))


def owner_record() -> Path:
    """The file naming the manifest the build folder belongs to (Note [Build folder])."""
    return build() / ".manifest"


def dep_file() -> Path:
    return build() / ".doit.sqlite3"


def lock_file() -> Path:
    """The build lock (tasks/engine/lock.py)."""
    return build() / ".doit.lock"


def digest_cache() -> Path:
    """The digests of files hashed on a doubt (tasks/engine/checker.py)."""
    return build() / ".digests.json"


def up_to_date_stamp() -> Path:
    """The no-op stamp (Note [Up-to-date stamp] in tasks/engine/stamp.py)."""
    return build() / ".up-to-date.json"


def engine_files() -> list[Path]:
    """The files the engine keeps in the build folder, besides the tasks' outputs."""
    database = dep_file()
    journal = database.with_name(database.name + "-journal")  # sqlite's, while it writes
    return [database, journal, digest_cache(), up_to_date_stamp(), owner_record(), lock_file()]


def model_ops(model: str) -> Path:
    return build() / ".models" / f"{model}.ops.yaml"


def model_info(model: str) -> Path:
    """A model's methods and the delegate backends it calls (which select no kernels)."""
    return build() / ".models" / f"{model}.info.json"


def target_dir(target: str) -> Path:
    return paths().target_dir(target)


def selection(target: str) -> Path:
    """The target's selection, every kernel key's sources kept (codegen/selection.py)."""
    return target_dir(target) / "selection.json"


def selected_operators(target: str) -> Path:
    return target_dir(target) / "selected_operators.yaml"


def provenance(target: str) -> Path:
    """Per operator and kernel key, the models and manifest entries that need it."""
    return target_dir(target) / "provenance.json"


def gen_dir(target: str) -> Path:
    return paths().gen_dir(target)


def resolution(target: str) -> Path:
    return target_dir(target) / "resolution.json"


def size_estimate(target: str) -> Path:
    """Codegen's prediction of the runner's size, from earlier size reports."""
    return target_dir(target) / "size_estimate.json"


def runner(target: str) -> Path:
    return paths().runner(target)


def runtime_library(target: str) -> Path:
    return paths().runtime_library(target)


def package_dir(target: str) -> Path:
    return paths().package_dir(target)


def size_app_source() -> Path:
    return paths().size_app_source


def size_app(target: str, with_library: bool) -> Path:
    return paths().size_app(target, with_library)


def unstripped_size_app(target: str, with_library: bool) -> Path:
    return paths().unstripped_size_app(target, with_library)


def unstripped_runner(target: str) -> Path:
    return paths().unstripped_runner(target)


def size_json(target: str) -> Path:
    return target_dir(target) / "size.json"


def size_reports() -> list[Path]:
    """The size report of every target built in the build folder, read back as history by
    later builds (Note [Size estimate])."""
    return sorted(build().glob("*/size.json"))


def size_md(target: str) -> Path:
    return target_dir(target) / "size.md"


def size_html(target: str) -> Path:
    return target_dir(target) / "size.html"


def verify_outputs(target: str) -> Path:
    """What the runner wrote for each model of the target, one folder per model."""
    return target_dir(target) / "verify"


def verify_json(target: str) -> Path:
    return paths().verify_json(target)
