"""The one writer of generated files: write atomically, and only when the bytes change.

Leaving an unchanged file untouched keeps its stat data, so downstream compiles stay up to
date and doit never re-hashes it.

Note [Temporaries]
~~~~~~~~~~~~~~~~~~
Every output of a build, ours or a compiler's, is written beside its place as
`<name>.<pid>.tmp` and renamed into place: a build interrupted at any moment leaves the old
file or the new one, never half a file. The process id in the name keeps a compiler left
running by a killed build from writing into the next build's temporary, and tells the next
build that a temporary whose process is gone is litter, which it sweeps (tasks/engine/lock.py).
One file is written by one task at a time, so one name per process is enough.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

# `<name>.<pid>.tmp`: group 1 is the process id.
TEMPORARY = re.compile(r".+\.(\d+)\.tmp")


def temporary(path: Path) -> Path:
    """Where this process writes `path` first (Note [Temporaries])."""
    return path.with_name(f"{path.name}.{os.getpid()}.tmp")


def write_if_changed(path: Path, content: str | bytes) -> bool:
    """Make `path` hold `content`; True when it was (re)written."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    written = temporary(path)
    written.unlink(missing_ok=True)  # made afresh: it gets the mode the umask gives
    try:
        with written.open("xb") as file:
            file.write(data)
        os.replace(written, path)
    except BaseException:
        written.unlink(missing_ok=True)
        raise
    return True


def write_committed(files: Mapping[Path, str], root: Path) -> None:
    """Rewrite each generated file that is committed beside the code (`files`: its path
    relative to `root` and the text it must hold) where it differs, naming each."""
    for path, text in files.items():
        if write_if_changed(root / path, text):
            print(f"wrote {path}")
