"""A model's reference inputs and outputs: `.npy` files, or one `.npz` archive.

Note [Reference archives]
A model's `inputs` (and its `outputs`) in the manifest are either `.npy` files, one per
value of the method in order, or one `.npz` archive (`numpy.savez`'s format, what an
export script naturally writes: one file per model). From an archive:
  - when it holds arrays named `in0`, `in1`, ... or `out0`, `out1`, ..., the inputs are
    the `in<N>` arrays and the outputs the `out<N>` arrays, in the order of N (which must
    run from 0 without a gap); so one archive holding both may be named for both
    (`numpy.savez(path, in0=x, out0=y)`, as the shared corpus's `*.io.npz` files are);
  - otherwise it holds one kind only, and its arrays are taken in the order they are stored
    (`numpy.savez(path, x, y)` stores `arr_0`, `arr_1`; keyword arrays in the order given).
The runner reads `.npy` files only, so verification writes an archive's arrays out as
`.npy` files first (`with_npy_files`); other messages name an array as `archive.npz[in0]`.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest.arrays import ARCHIVE_SUFFIX
from selective_build.codegen.manifest.model import Model

KINDS = {"inputs": "in", "outputs": "out"}  # the manifest key -> its arrays' name prefix
# An archive lists its arrays in its zip directory; more than this is no model's.
MAX_ARRAYS = 4096
_NUMBERED = re.compile(r"(in|out)(0|[1-9][0-9]{0,5})")


@dataclass(frozen=True)
class Reference:
    """One reference array: a `.npy` file, or a member of an `.npz` archive."""

    path: Path
    member: str | None = None  # the array's name in the archive

    def __str__(self) -> str:
        return f"{self.path}[{self.member}]" if self.member is not None else str(self.path)


def is_archive(path: Path) -> bool:
    return path.suffix == ARCHIVE_SUFFIX


def references(paths: Sequence[Path], kind: str) -> list[Reference]:
    """The arrays the manifest's `inputs` or `outputs` (`kind`) stand for, in order (Note
    [Reference archives]); InputError naming an archive that cannot be listed."""
    if len(paths) == 1 and is_archive(paths[0]):
        archive = paths[0]
        return [Reference(archive, name) for name in _archive_arrays(archive, KINDS[kind])]
    return [Reference(path) for path in paths]


def _archive_arrays(archive: Path, prefix: str) -> list[str]:
    names = archive_names(archive)
    numbered = [m for m in map(_NUMBERED.fullmatch, names) if m is not None]
    if not numbered:
        return names
    mine = sorted(int(m.group(2)) for m in numbered if m.group(1) == prefix)
    if mine != list(range(len(mine))):
        missing = min(set(range(len(mine) + 1)) - set(mine))
        raise InputError(archive, f"holds {prefix}{mine[-1]} but no {prefix}{missing}")
    return [f"{prefix}{number}" for number in mine]


def archive_names(archive: Path) -> list[str]:
    """The names of the arrays in `archive`, in the order they are stored (only the zip
    directory is read)."""
    try:
        with zipfile.ZipFile(archive) as opened:
            members = opened.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        reason = " ".join(str(getattr(error, "strerror", None) or error).split())
        raise InputError(archive, f"not an .npz archive ({reason})") from None
    if len(members) > MAX_ARRAYS:
        raise InputError(archive, f"holds more than {MAX_ARRAYS} arrays")
    names = []
    for member in members:
        if not member.filename.endswith(".npy"):
            raise InputError(archive, f"member {member.filename!r} is not an .npy array")
        names.append(member.filename.removesuffix(".npy"))
    return names


def load_member(reference: Reference) -> Any:
    """The array an archive's member holds, or what is wrong with it (one line). Pickled
    (object) arrays stay refused: loading one runs code from the file."""
    import numpy as np

    try:
        with np.load(reference.path, allow_pickle=False) as archive:
            return archive[reference.member]
    except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        return f"not a valid .npy array ({reason})"


def load_all(paths: Sequence[Path], kind: str) -> list[Any]:
    """The arrays of a model's `inputs` or `outputs` (`kind`), loaded: for tools that run a
    model themselves (benchmarks). InputError naming a file or array numpy cannot read."""
    import numpy as np

    arrays = []
    for item in references(paths, kind):
        if item.member is not None:
            array = load_member(item)
        else:
            try:
                array = np.load(item.path, allow_pickle=False)
            except (ValueError, OSError, EOFError) as error:
                array = f"not a valid .npy file ({' '.join(str(error).split())})"
        if isinstance(array, str):
            raise InputError(str(item), array)
        arrays.append(array)
    return arrays


def with_npy_files(model: Model, folder: Path) -> Model:
    """`model`, its archives' arrays written out into `folder` as `.npy` files the runner
    reads (`in0.npy`..., `out0.npy`...); the model itself when it names no archive.
    InputError naming an array that cannot be read."""
    import numpy as np

    if not any(is_archive(path) for path in (*model.inputs, *model.outputs)):
        return model
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files: dict[str, tuple[Path, ...]] = {}
    for kind, paths in (("inputs", model.inputs), ("outputs", model.outputs)):
        written = []
        for index, item in enumerate(references(paths, kind)):
            if item.member is None:
                written.append(item.path)
                continue
            array = load_member(item)
            if isinstance(array, str):
                raise InputError(str(item), array)
            written.append(folder / f"{KINDS[kind]}{index}.npy")
            np.save(written[-1], array, allow_pickle=False)
        files[kind] = tuple(written)
    return dataclasses.replace(model, inputs=files["inputs"], outputs=files["outputs"])
