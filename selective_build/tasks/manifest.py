"""The manifest this doit run builds, loaded once when doit loads the tasks."""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING

from selective_build.tasks.config import manifest_path

if TYPE_CHECKING:
    from selective_build.codegen.manifest import Manifest


@functools.cache
def manifest() -> Manifest:
    """The validated manifest; a user mistake ends doit with one line, not a traceback."""
    # Imported here: a no-op build ends before any manifest is parsed (tasks/engine/stamp.py).
    from selective_build.codegen.build_folder import check_inputs_outside
    from selective_build.codegen.errors import InputError
    from selective_build.codegen.manifest import load_manifest
    from selective_build.tasks import layout
    from selective_build.tasks.cmake_probe import cached_probe

    try:
        # Built-in libraries spelled like the rest of our code (Note [Build folder]).
        loaded = load_manifest(manifest_path(), layout.paths().builtin_kernels_dir, cached_probe)
        check_inputs_outside(loaded, layout.build())
        return loaded
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
