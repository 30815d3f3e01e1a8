"""Header dependencies from the compiler's depfiles, as a doit `uptodate` check.

Note [Headers behind uptodate]
Listing depfile headers in `file_dep` would change the task's dependency set after its
first run, which costs every object one extra compile (doit notes, P17). Instead the
headers are checked by an `uptodate` item against values saved after each compile: first
their (mtime, size) stamps, which costs a stat per distinct header per run; only when a
stamp moved, their contents, through the digest cache of tasks/engine/checker.py, so a header
touched without a change is hashed once and rebuilds nothing.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from tasks.engine import checker
from tasks.engine.stamp import EVIDENCE

# Objects share most of their headers: stat each one once per doit run.
_STAMPS: dict[str, os.stat_result | None] = {}


def depfile_headers(depfile: Path) -> list[str]:
    """The prerequisites after the first one (the source) in a make-style depfile."""
    text = depfile.read_text(encoding="utf-8").replace("\\\n", " ")
    _, _, prerequisites = text.partition(": ")
    return sorted(prerequisites.split()[1:])


def _status(path: str) -> os.stat_result | None:
    if path not in _STAMPS:
        _STAMPS[path] = EVIDENCE.stat(path)
    return _STAMPS[path]


def forget_stamps() -> None:
    """Stat every header afresh from now on (outputs and headers may have moved)."""
    _STAMPS.clear()


def _combine(parts: list[str]) -> str:
    return hashlib.md5("\0".join(parts).encode()).hexdigest()


def stamps_digest(headers: list[str]) -> str:
    parts = []
    for header in headers:
        status = _status(header)
        stamp = "missing" if status is None else f"{status.st_mtime_ns}:{status.st_size}"
        parts.append(f"{header}\0{stamp}")
    return _combine(parts)


def contents_digest(headers: list[str]) -> str:
    parts = []
    for header in headers:
        status = _status(header)
        digest = "missing" if status is None else checker.CACHE.digest(header, status)
        parts.append(f"{header}\0{digest}")
    return _combine(parts)


class HeadersUnchanged:
    """`uptodate` item: the headers the last compile read still have the same content."""

    def __init__(self, depfile: Path) -> None:
        self.depfile = depfile

    def __call__(self, task: Any, values: dict[str, Any]) -> bool:
        task.value_savers.append(self._save)
        EVIDENCE.stat(str(self.depfile))
        try:
            headers = depfile_headers(self.depfile)
        except OSError:
            return False
        if values.get("stamps") == stamps_digest(headers):
            return True
        return values.get("headers") == contents_digest(headers)

    def _save(self) -> dict[str, Any]:
        # The compile just rewrote the depfile and may have seen newer headers.
        forget_stamps()
        headers = depfile_headers(self.depfile)
        return {"stamps": stamps_digest(headers), "headers": contents_digest(headers)}
