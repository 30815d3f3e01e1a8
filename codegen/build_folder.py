"""The manifest's top-level `build` key: the folder its outputs go to, relative to it.

Read on its own, before the manifest is parsed whole: the build folder holds the no-op
stamp and doit's database, which are looked at before any task module is imported
(tasks/engine/stamp.py). The full parser (codegen/manifest.py) checks the key with the same
function, so both readers agree on what it means and on its error message.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from codegen.errors import InputError
from codegen.paths import not_a_regular_file

KEY = "build"
# The manifest parser refuses larger files with its own message; this reader only reads.
_MAX_BYTES = 16 << 20

_KINDS = {
    dict: "a table",
    list: "an array",
    bool: "a boolean",
    int: "an integer",
    float: "a float",
}


def build_key(value: object, manifest: Path) -> Path:
    """The folder `build = value` names in `manifest`: relative to the manifest's folder
    (an absolute path stays absolute)."""
    if not isinstance(value, str):
        kind = _KINDS.get(type(value), type(value).__name__)
        raise InputError(manifest, f"{KEY}: expected a string (a folder), got {kind}")
    if not value.strip():
        raise InputError(manifest, f"{KEY}: an empty folder name (leave the key out for build/)")
    if "\0" in value:
        raise InputError(manifest, f"{KEY}: a folder name with a NUL character")
    return manifest.parent / value


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
