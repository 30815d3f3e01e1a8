"""doit's file checker, with the digests of moved-but-unchanged files remembered.

doit's MD5 checker trusts an unchanged mtime and hashes otherwise; but it records a file's
new mtime only when a task that depends on it runs. A model that is touched or copied
without changing (a `git checkout`, a re-download) would then be hashed again on every
later build, seconds for a large model. This checker keeps the digest of every
(path, mtime, size) it hashed in build/.digests.json, so such a file is hashed once.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from doit.dependency import MD5Checker

from codegen.writer import write_if_changed
from tasks import layout

if TYPE_CHECKING:
    from tasks.engine.run import Run

_CHUNK = 1 << 20


def hash_file(path: str) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class DigestCache:
    """(path, mtime in ns, size) -> md5, loaded on first use, saved when the run ends."""

    def __init__(self, path: Path | None = None) -> None:
        # None: build/.digests.json, known once doit has read its command line.
        self.path = path
        self.entries: dict[str, str] | None = None
        self.dirty = False

    def digest(self, path: str, status: os.stat_result) -> str:
        if self.entries is None:
            self.path = self.path or layout.build() / ".digests.json"
            self.entries = self._load(self.path)
        key = f"{path}\0{status.st_mtime_ns}\0{status.st_size}"
        if key not in self.entries:
            self.entries[key] = hash_file(path)
            self.dirty = True
        return self.entries[key]

    @staticmethod
    def _load(path: Path) -> dict[str, str]:
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def save(self) -> None:
        """Write what was hashed, if anything was and the build folder exists (a command
        that only inspects, like `doit info`, writes nothing into build/)."""
        if not self.dirty or self.entries is None or self.path is None:
            return
        if self.path.parent.is_dir():
            # Forget files that are gone so the cache does not grow without bound.
            live = {k: v for k, v in self.entries.items() if os.path.exists(k.split("\0")[0])}
            write_if_changed(self.path, json.dumps(live, indent=0, sort_keys=True) + "\n")
            self.dirty = False


class CachedMD5Checker(MD5Checker):  # type: ignore[misc]
    """MD5Checker whose digests come from the run's cache (see module docstring), and whose
    looks at files are kept as the run's evidence for the up-to-date stamp
    (tasks/engine/stamp.py). doit makes it with no arguments: the run's configuration gives
    doit `functools.partial(CachedMD5Checker, run)` (tasks/engine/loader.py); its class name,
    which doit saves per task, is the same for every run."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def exists(self, file_path: str) -> bool:
        return self.run.checks.stat(file_path) is not None

    def info(self, file_path: str) -> os.stat_result:
        status = self.run.checks.stat(file_path)
        if status is None:
            raise self.CheckerError(f"{file_path} does not exist")
        return status

    def check_modified(self, file_path: str, file_stat: os.stat_result, state: Any) -> bool:
        timestamp, size, file_md5 = state
        if file_stat.st_mtime == timestamp:
            return False
        if file_stat.st_size != size:
            return True
        return bool(file_md5 != self.run.digests.digest(file_path, file_stat))

    def get_state(self, dep: str, current_state: Any) -> Any:
        status = os.stat(dep)
        if current_state and current_state[0] == status.st_mtime:
            return None
        return status.st_mtime, status.st_size, self.run.digests.digest(dep, status)
