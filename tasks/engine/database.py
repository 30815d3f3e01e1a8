"""doit's sqlite3 dependency database, opened when first needed.

doit opens its database before it loads any task, for every command. Opening creates the
file (and needs build/ to exist), so `doit list` or `doit info` in a fresh folder would
create build/ and a database. This one answers reads from an empty in-memory database while
there is no file, and creates build/ and the file only when a run saves something.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any

from doit.dependency import SqliteDB

# Its name as a doit.BACKEND plugin (pyproject.toml's [tool.doit.plugins.backend], and
# tasks/engine/loader.py).
BACKEND = "build-sqlite3"


class BuildDatabase(SqliteDB):  # type: ignore[misc]
    desc = "sqlite3, created in the build folder when a run first saves"

    def __init__(self, name: str, codec: Any, *, module_name: str | None = None) -> None:
        self.name = name
        self.codec = codec
        self._cache: dict[str, Any] = {}
        self._dirty: set[str] = set()
        self._file: sqlite3.Connection | None = None
        self._empty: sqlite3.Connection | None = None

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._file is None and (self._dirty or os.path.exists(self.name)):
            if not os.path.exists(self.name):
                _claim_build_folder(os.path.dirname(self.name) or ".")
            os.makedirs(os.path.dirname(self.name) or ".", exist_ok=True)
            self._file = self._sqlite3(self.name)
        if self._file is not None:
            return self._file
        if self._empty is None:
            self._empty = self._sqlite3(":memory:")
        return self._empty


def _claim_build_folder(folder: str) -> None:
    """A command that runs no task but saves (`ignore`, `reset-dep`, `forget`) may be the
    first to write into a brand-new build folder: it records the owner as a build does
    (Note [Build folder] in tasks/layout.py), so the folder is not left to another manifest.
    Its ownership was checked when its tasks were made (tasks/engine/loader.py)."""
    from tasks import layout  # only when a database file is first created
    from tasks.engine.lock import record_build_folder_owner

    if os.path.realpath(folder) == os.path.realpath(layout.build()):
        record_build_folder_owner()
