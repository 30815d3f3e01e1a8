"""A manifest's CMake toolchain files read once (Note [CMake toolchain files] in
codegen/manifest/cmake_toolchain.py): the probe's variables are kept in build/.toolchains/, named by
the digest of the file's path and content, so CMake runs again only for a new or edited
file."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from selective_build.codegen.manifest.cmake_toolchain import (
    run_probe,
    variables_from_json,
    variables_to_json,
)
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout


def cached_probe(toolchain_file: Path) -> Mapping[str, str]:
    """`run_probe(toolchain_file)`, from the cache when it holds the answer. Commands that
    only inspect (`list` in a folder never built) write nothing: the cache is written only
    into a build folder that exists."""
    key = str(toolchain_file.resolve()).encode() + b"\0" + toolchain_file.read_bytes()
    cache = layout.build() / ".toolchains" / f"{hashlib.sha256(key).hexdigest()[:32]}.json"
    try:
        cached = variables_from_json(cache.read_text(encoding="utf-8"))
    except OSError:
        cached = None
    if cached is not None:
        return cached
    variables = run_probe(toolchain_file)
    if layout.build().is_dir():
        write_if_changed(cache, variables_to_json(variables))
    return variables
