"""doit's sqlite3 dependency database, opened when first needed, recovered when damaged.

doit opens its database before it loads any task, for every command. Opening creates the
file (and needs build/ to exist), so `doit list` or `doit info` in a fresh folder would
create build/ and a database. This one answers reads from an empty in-memory database while
there is no file, and creates build/ and the file only when a run saves something.

A damaged file (truncated, overwritten: sqlite calls it malformed or not a database) is
doit's record of what every task last did, and it cannot be trusted in part: from the
moment the damage shows, every read answers "never ran" (so every task runs again, and its
outputs are checked afresh), one line says so, and the run that saves replaces the file
with a sound one. A save that the disk refuses ends the run in one line (Note [Unwritable
build folder] in tasks/engine/storage.py); what it would have saved runs again next time.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
from collections.abc import Iterator
from typing import Any

from doit.dependency import DatabaseException, SqliteDB

from selective_build.tasks.engine import storage

# Its name as a doit.BACKEND plugin (pyproject.toml's [tool.doit.plugins.backend], and
# tasks/engine/loader.py).
BACKEND = "build-sqlite3"

# sqlite's result codes for a file that is not a sound database.
_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
# ...and for a save the disk or the folder refused, as the errno that says what to do.
_REFUSED = {
    sqlite3.SQLITE_FULL: errno.ENOSPC,
    sqlite3.SQLITE_IOERR: errno.ENOSPC,  # a journal it could not write
    sqlite3.SQLITE_READONLY: errno.EROFS,
    sqlite3.SQLITE_CANTOPEN: errno.EROFS,
}


class BuildDatabase(SqliteDB):  # type: ignore[misc]
    desc = "sqlite3, created in the build folder when a run first saves"

    def __init__(self, name: str, codec: Any, *, module_name: str | None = None) -> None:
        self.name = name
        self.codec = codec
        self._cache: dict[str, Any] = {}
        self._dirty: set[str] = set()
        self._file: sqlite3.Connection | None = None
        self._empty: sqlite3.Connection | None = None
        self._damaged = False

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._file is None and not self._damaged and (self._dirty or os.path.exists(self.name)):
            if not os.path.exists(self.name):
                _claim_build_folder(os.path.dirname(self.name) or ".")
            os.makedirs(os.path.dirname(self.name) or ".", exist_ok=True)
            try:
                self._file = self._sqlite3(self.name)
            except DatabaseException as error:
                self._set_aside(error.__cause__ or error.__context__ or error)
        if self._file is not None:
            return self._file
        if self._empty is None:
            self._empty = self._sqlite3(":memory:")
        return self._empty

    def _set_aside(self, error: BaseException) -> None:
        """From now on, the damaged file answers nothing (module docstring)."""
        print(
            f"warning: {self.name} is damaged ({error}): every task runs again, and the"
            " file is replaced when this run saves",
            file=sys.stderr,
        )
        self._damaged = True
        if self._file is not None:
            self._file.close()
            self._file = None

    def _get_task_data(self, task_id: str) -> Any:
        try:
            return super()._get_task_data(task_id)
        except sqlite3.DatabaseError as error:
            if error.sqlite_errorcode not in _DAMAGED:
                raise
            self._set_aside(error)
            return super()._get_task_data(task_id)

    def in_(self, task_id: str) -> bool:
        try:
            return bool(super().in_(task_id))
        except sqlite3.DatabaseError as error:
            if error.sqlite_errorcode not in _DAMAGED:
                raise
            self._set_aside(error)
            return bool(super().in_(task_id))

    def records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every task's saved record, as doit keeps it (its values under `_values_:`)."""
        try:
            rows = self._conn.execute("select task_id, task_data from doit").fetchall()
        except (sqlite3.DatabaseError, ValueError):  # damaged: it vouches for nothing
            return
        for row in rows:
            data = self._cache.get(row["task_id"], row["task_data"])
            if isinstance(data, dict):
                yield row["task_id"], data

    def dump(self) -> None:
        try:
            try:
                self._save()
            except sqlite3.DatabaseError as error:
                if error.sqlite_errorcode not in _DAMAGED:
                    raise
                self._set_aside(error)  # the damage showed only now
                self._save()
        except (sqlite3.Error, OSError) as error:
            if isinstance(error, OSError):
                code = error.errno
            else:
                code = _REFUSED.get(getattr(error, "sqlite_errorcode", None) or 0)
            what = storage.fix(code)
            if what is None:
                raise
            print(f"error: cannot save {self.name}: {error}: {what}", file=sys.stderr)
            raise SystemExit(2) from None

    def _save(self) -> None:
        if self._damaged:
            self._replace_damaged()
        super().dump()

    def _replace_damaged(self) -> None:
        """A sound file in place of the damaged one, holding every record this run read or
        wrote (its reads came from the file until the damage showed)."""
        for stale in (self.name, f"{self.name}-journal"):
            try:
                os.unlink(stale)
            except FileNotFoundError:
                pass
        self._damaged = False
        self._dirty = set(self._cache)


def _claim_build_folder(folder: str) -> None:
    """A command that runs no task but saves (`ignore`, `reset-dep`, `forget`) may be the
    first to write into a brand-new build folder: it records the owner as a build does
    (Note [Build folder] in tasks/layout.py), so the folder is not left to another manifest.
    Its ownership was checked when its tasks were made (tasks/engine/loader.py)."""
    from selective_build.tasks import layout  # only when a database file is first created
    from selective_build.tasks.engine.lock import record_build_folder_owner

    if os.path.realpath(folder) == os.path.realpath(layout.build()):
        record_build_folder_owner()
