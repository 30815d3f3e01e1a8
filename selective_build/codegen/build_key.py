"""The manifest's top-level `build` key: the folder its outputs go to, relative to the
manifest. Both readers of the key call `build_key`, so they agree on what it means and on
its error message: the manifest parser, and codegen/build_folder.py, which reads the key on
its own before the manifest is parsed whole (the no-op stamp lives in that folder). A leaf,
outside codegen/manifest/: importing anything there runs the whole parser's imports, which
the no-op build must not pay.
"""

from __future__ import annotations

from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.toml_kind import kind

KEY = "build"


def build_key(value: object, manifest: Path) -> Path:
    """The folder `build = value` names in `manifest`: relative to the manifest's folder
    (an absolute path stays absolute)."""
    if not isinstance(value, str):
        raise InputError(manifest, f"{KEY}: expected a string (a folder), got {kind(value)}")
    if not value.strip():
        raise InputError(manifest, f"{KEY}: an empty folder name (leave the key out for build/)")
    if "\0" in value:
        raise InputError(manifest, f"{KEY}: a folder name with a NUL character")
    return manifest.parent / value
