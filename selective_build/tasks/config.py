"""The manifest this doit run builds, by its path (the manifest itself: tasks/manifest.py).

A leaf: the build lock and the output paths need the manifest's path, and the code every
compile and link runs imports them (Note [Tool step code], codegen/plan/steps.py), so this
module must not reach the manifest parser."""

from __future__ import annotations

from pathlib import Path

from doit import get_var

DEFAULT_MANIFEST = "selective.toml"


def manifest_path() -> Path:
    """`doit manifest=path.toml ...` picks another manifest."""
    return Path(get_var("manifest", DEFAULT_MANIFEST) or DEFAULT_MANIFEST)
