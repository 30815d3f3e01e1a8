"""What one round of reading looked at, file by file, and the one way task creators read.

The up-to-date stamp (Note [Up-to-date stamp] in tasks/engine/stamp.py) is sound only if it
holds the stamp of every file a task definition was made from. So a task creator that needs
a file's content takes a `reads` parameter (the engine's loader gives it the run's `Reads`:
tasks/engine/loader.py) and reads through it, which records the file as it saw it.
"""

from __future__ import annotations

import os
from pathlib import Path

from selective_build.tasks.engine.stat_key import Key, key

Stamp = Key | None  # the file's stat key (Note [Stat key]); None: missing


def stamp_of(status: os.stat_result | None) -> Stamp:
    return None if status is None else key(status)


def stat_or_none(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


class Evidence:
    """The stamp of every file one round of reading looked at, as it saw it."""

    def __init__(self) -> None:
        self.stamps: dict[str, Stamp] = {}
        self.consistent = True

    def restart(self) -> None:
        self.stamps.clear()
        self.consistent = True

    def see(self, path: str, status: os.stat_result | None) -> None:
        stamp = stamp_of(status)
        if self.stamps.setdefault(path, stamp) != stamp:
            self.consistent = False  # it moved while doit was looking

    def stat(self, path: str) -> os.stat_result | None:
        status = stat_or_none(path)
        self.see(path, status)
        return status


class Reads:
    """A task creator's reads of files, each recorded in the evidence of what the task
    definitions were made from."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence

    def exists(self, path: Path) -> bool:
        return self.evidence.stat(str(path)) is not None

    def text(self, path: Path) -> str | None:
        """The file's text; None when it does not exist (yet). Stamped before it is read:
        a file rewritten in between then differs from its stamp, and the next build goes to
        doit rather than trust a stamp of the content it did not read."""
        if self.evidence.stat(str(path)) is None:
            return None
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.evidence.consistent = False  # removed after it was stamped
            return None
