"""The build folder: where the manifest's `build` key puts it, read before the manifest is
parsed whole, and what may not lie in it (Note [Build folder apart from its sources]).

The build folder holds the no-op stamp and doit's database, which are looked at before any
task module is imported (tasks/engine/stamp.py), so the key is read here on its own, with
the parser's own function (codegen/build_key.py).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from selective_build.codegen.build_key import KEY, build_key
from selective_build.codegen.errors import InputError
from selective_build.codegen.paths import not_a_regular_file

if TYPE_CHECKING:  # the no-op stamp reads the key before any manifest is parsed
    from selective_build.codegen.manifest.model import Manifest

# The manifest parser refuses larger files with its own message; this reader only reads.
_MAX_BYTES = 16 << 20


def manifest_build_folder(manifest: Path) -> Path | None:
    """The folder the manifest's `build` key names, or None when it has none. A manifest
    that cannot be read or is not TOML gives None too: the full parser says what is wrong
    with it, in one line, when the tasks are made."""
    if not_a_regular_file(manifest) is not None:  # a named pipe would block the open
        return None
    try:
        with manifest.open("rb") as file:
            data = file.read(_MAX_BYTES + 1)
        document = tomllib.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None
    if len(data) > _MAX_BYTES or KEY not in document:
        return None
    return build_key(document[KEY], manifest)


# Note [Build folder apart from its sources]
# A build writes, rewrites and cleans everything below its build folder: verification puts
# the runner's outputs in build/<target>/verify/, `clean` deletes what tasks made. A file
# the build reads that lies in there could be overwritten by what the build makes from it
# (a reference replaced by the runner's output, then "verified" against itself), and a
# build folder that holds the sources would mix its outputs among them. So a build folder
# may hold neither the manifest nor the sources we compile (checked before anything is
# written there), and no manifest input may lie inside it (checked when the manifest is
# read). Paths are compared both as written and with symbolic links resolved: a link that
# leads into the build folder, or a build folder that is a link to the sources, is caught.


def check_build_folder(build: Path, manifest: Path, chosen_by: str, sources: list[Path]) -> None:
    """InputError naming `manifest` when `build` holds the manifest, or overlaps one of
    `sources` (the folders of code every build compiles: holds it or lies inside it).
    `chosen_by` says where the folder was given: the manifest's key `build`, or `build=DIR`
    on the command line."""
    problem = None
    if _inside(manifest, build):
        problem = f"holds the manifest {manifest.name}"
    for folder in sources:
        if problem is None and (_inside(folder, build) or _inside(build, folder)):
            problem = f"overlaps the sources {folder}"
    if problem is not None:
        raise InputError(
            manifest,
            f"{chosen_by}: the build folder {build} {problem}, and a build writes and cleans "
            "everything in its folder; give the build a folder of its own (without the "
            "key, build/ beside the manifest)",
        )


def check_inputs_outside(manifest: Manifest, build: Path) -> None:
    """InputError naming the manifest, the key path and the file when an input of the
    manifest (a model, its inputs and references, a schema or selection file, a kernel
    library's files) lies inside the build folder `build`."""
    for key, path in _manifest_inputs(manifest):
        if _inside(path, build):
            raise InputError(
                manifest.path,
                f"{key}: {path} lies inside the build folder {build}, which the build "
                "writes and cleans (verification would overwrite a reference there); "
                "keep the build's inputs outside it",
            )


def _manifest_inputs(manifest: Manifest) -> list[tuple[str, Path]]:
    """Every file or folder the manifest names, with its key path."""
    inputs: list[tuple[str, Path]] = []
    for name, model in manifest.models.items():
        key = f"models.{name}"
        inputs.append((f"{key}.path", model.path))
        inputs += [(f"{key}.inputs[{i}]", p) for i, p in enumerate(model.inputs)]
        inputs += [(f"{key}.outputs[{i}]", p) for i, p in enumerate(model.outputs)]
    for name, library in manifest.libraries.items():
        inputs += [(f"libraries.{name}.functions", library.functions)]
        inputs += [(f"libraries.{name}.sources", library.sources)]
    for name, target in manifest.targets.items():
        key = f"targets.{name}"
        inputs += [(f"{key}.op_schemas[{i}]", p) for i, p in enumerate(target.op_schemas)]
        inputs += [(f"{key}.selections[{i}]", p) for i, p in enumerate(target.selections)]
    return inputs


def _inside(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or lies below it, as written or with links resolved."""
    return any(
        Path(spelled(path)).is_relative_to(spelled(folder))
        for spelled in (os.path.abspath, os.path.realpath)
    )
