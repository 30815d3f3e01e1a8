"""doit's file checker: a file's content is taken as unchanged without reading it only when
its stat key vouches for it (Note [Stat key] in tasks/engine/stat_key.py), and the digests of
files hashed on a doubt are remembered.

doit's MD5 checker trusts an unchanged mtime, which `cp -p` or `touch -r` restore after an
edit; this one keeps the stat key with each file's state and hashes the file when the key
moved. doit records a file's new state only when a task that depends on it runs, so a model
touched or copied without changing (a `git checkout`, a re-download) would be hashed again on
every later build, seconds for a large model: this checker keeps the digest of every file it
hashed in build/.digests.json, by path and stat key, so such a file is hashed once.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Protocol

from doit.dependency import MD5Checker

from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.engine import stat_key
from selective_build.tasks.engine.evidence import Evidence

_CHUNK = 1 << 20


def hash_file(path: str) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _entry(path: str, key: stat_key.Key) -> str:
    return "\0".join([path, *map(str, key)])


class DigestCache:
    """(path, stat key) -> md5, loaded on first use, saved when the run ends. A digest taken
    while the file's key was racy (Note [Stat key]) serves this run; when the run ends, the
    file is hashed again if its key has settled since, and the digest is kept if the same
    (a build hashes the outputs it wrote twice, so that later runs need not)."""

    def __init__(self, path: Path | None = None) -> None:
        # None: build/.digests.json, known once doit has read its command line.
        self.path = path
        self.entries: dict[str, str] | None = None
        self.racy: set[str] = set()
        self.dirty = False

    def digest(self, path: str, status: os.stat_result) -> str:
        if self.entries is None:
            self.path = self.path or layout.digest_cache()
            self.entries = self._load(self.path)
        entry = _entry(path, stat_key.key(status))
        if entry in self.entries:
            return self.entries[entry]
        digest = hash_file(path)
        after = os.stat(path)
        if stat_key.key(after) != stat_key.key(status):
            return digest  # it changed while it was read: remember nothing of it
        self.entries[entry] = digest
        if stat_key.racy(stat_key.key(after)):
            self.racy.add(entry)
        else:
            self.dirty = True
        return digest

    @staticmethod
    def _load(path: Path) -> dict[str, str]:
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def save(self) -> None:
        """Write what was hashed, if anything was and the build folder exists (a command
        that only inspects, like `doit info`, writes nothing into build/). A cache: on a
        full or read-only disk it is not written, and the next run hashes again."""
        if self.entries is None or self.path is None:
            return
        self._settle_racy()
        if self.dirty and self.path.parent.is_dir():
            # Only a file's present key can match again: the cache does not grow.
            live = {
                entry: digest
                for entry, digest in self.entries.items()
                if entry not in self.racy and _is_current(entry)
            }
            with contextlib.suppress(OSError):
                write_if_changed(self.path, json.dumps(live, indent=0, sort_keys=True) + "\n")
            self.dirty = False

    def _settle_racy(self) -> None:
        assert self.entries is not None
        for entry in sorted(self.racy):
            path = entry.split("\0", 1)[0]
            try:
                key = stat_key.key(os.stat(path))
                if _entry(path, key) != entry or stat_key.racy(key):
                    continue
                digest = hash_file(path)
                settled = _entry(path, stat_key.key(os.stat(path))) == entry
            except OSError:
                continue
            if settled and digest == self.entries[entry]:
                self.racy.discard(entry)
                self.dirty = True


def _is_current(entry: str) -> bool:
    path = entry.split("\0", 1)[0]
    try:
        return _entry(path, stat_key.key(os.stat(path))) == entry
    except OSError:
        return False


class CheckedRun(Protocol):
    """What the checker needs of a run (tasks/engine/run.py, which holds a DigestCache and
    so imports this module): where its looks at files go, and its digests."""

    @property
    def checks(self) -> Evidence: ...

    @property
    def digests(self) -> DigestCache: ...


class CachedMD5Checker(MD5Checker):  # type: ignore[misc]
    """MD5Checker by stat key (module docstring), whose digests come from the run's cache,
    and whose looks at files are kept as the run's evidence for the up-to-date stamp
    (tasks/engine/stamp.py). doit makes it with no arguments: the run's configuration gives
    doit `functools.partial(CachedMD5Checker, run)` (tasks/engine/loader.py); its class name,
    which doit saves per task, is the same for every run.

    A file's state is (mtime, size, md5, stat key): doit's three, and the key, None when it
    was racy. A state saved without a key (by an earlier version) is a doubt: hashed."""

    def __init__(self, run: CheckedRun) -> None:
        self.run = run

    def exists(self, file_path: str) -> bool:
        return self.run.checks.stat(file_path) is not None

    def info(self, file_path: str) -> os.stat_result:
        status = self.run.checks.stat(file_path)
        if status is None:
            raise self.CheckerError(f"{file_path} does not exist")
        return status

    def check_modified(self, file_path: str, file_stat: os.stat_result, state: Any) -> bool:
        _, size, file_md5, *key = state
        if key and stat_key.same(key[0], file_stat):
            return False
        if file_stat.st_size != size:
            return True
        return bool(file_md5 != self.run.digests.digest(file_path, file_stat))

    def get_state(self, dep: str, current_state: Any) -> Any:
        status = os.stat(dep)
        if current_state and len(current_state) == 4 and stat_key.same(current_state[3], status):
            return None  # as saved
        digest = self.run.digests.digest(dep, status)
        return status.st_mtime, status.st_size, digest, stat_key.trusted_key(status)
