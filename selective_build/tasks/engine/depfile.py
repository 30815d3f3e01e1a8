"""Header dependencies from the compiler's depfiles, as a doit `uptodate` check.

Note [Headers behind uptodate]
Listing depfile headers in `file_dep` would change the task's dependency set after its
first run, which costs every object one extra compile (doit notes, P17). Instead the
headers are checked by an `uptodate` item against values saved after each compile: first
their stat keys (Note [Stat key] in tasks/engine/stat_key.py), which costs a stat per
distinct header per run; only when a key moved (or was racy when saved), their contents,
through the run's digest cache (tasks/engine/checker.py), so a header touched without a
change is hashed once and rebuilds nothing.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from selective_build.tasks.engine import stat_key
from selective_build.tasks.engine.run import Run
from selective_build.tasks.engine.uptodate import RunCheck


def depfile_headers(depfile: Path) -> list[str]:
    """The prerequisites after the first one (the source) in a make-style depfile."""
    text = depfile.read_text(encoding="utf-8").replace("\\\n", " ")
    _, _, prerequisites = text.partition(": ")
    return sorted(prerequisites.split()[1:])


def _combine(parts: list[str]) -> str:
    return hashlib.md5("\0".join(parts).encode()).hexdigest()


def stamps_digest(run: Run, headers: list[str]) -> str | None:
    """The digest of the headers' stat keys; None when one is racy (it vouches for nothing)."""
    parts = []
    for header in headers:
        status = run.header_status(header)
        key = None if status is None else stat_key.key(status)
        if key is not None and stat_key.racy(key):
            return None
        parts.append(f"{header}\0{key}")
    return _combine(parts)


def contents_digest(run: Run, headers: list[str]) -> str:
    parts = []
    for header in headers:
        status = run.header_status(header)
        digest = "missing" if status is None else run.digests.digest(header, status)
        parts.append(f"{header}\0{digest}")
    return _combine(parts)


class HeadersUnchanged(RunCheck):
    """`uptodate` item: the headers the last compile read still have the same content."""

    def __init__(self, depfile: Path) -> None:
        super().__init__()
        self.depfile = depfile

    def __repr__(self) -> str:  # what `doit info` names it by
        return f"the headers {self.depfile} lists, unchanged"

    def __call__(self, task: Any, values: dict[str, Any]) -> bool:
        task.value_savers.append(self._save)
        self.run.checks.stat(str(self.depfile))
        try:
            headers = depfile_headers(self.depfile)
        except OSError:
            return False
        stamps = values.get("stamps")
        if stamps is not None and stamps == stamps_digest(self.run, headers):
            return True
        return values.get("headers") == contents_digest(self.run, headers)

    def _save(self) -> dict[str, Any]:
        # The compile just rewrote the depfile and may have seen newer headers.
        self.run.forget_header_stats()
        headers = depfile_headers(self.depfile)
        return {
            "stamps": stamps_digest(self.run, headers),
            "headers": contents_digest(self.run, headers),
        }
