"""The one writer of generated files: write atomically, and only when the bytes change.

Leaving an unchanged file untouched keeps its mtime, so downstream compiles stay up to
date and doit never re-hashes it (doit's md5 checker trusts an unchanged mtime).
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path


@functools.cache
def _umask() -> int:
    """The process umask, read without changing it where the kernel says it (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore, once per process
    os.umask(mask)
    return mask


def write_if_changed(path: Path, content: str | bytes) -> bool:
    """Make `path` hold `content`; True when it was (re)written."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write beside the target and rename, so an interrupted build never leaves half a file.
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        # mkstemp makes the file private (0600); an output gets the mode any tool's would.
        os.fchmod(descriptor, 0o666 & ~_umask())
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return True


def write_committed(files: Mapping[Path, str], root: Path) -> None:
    """Rewrite each generated file that is committed beside the code (`files`: its path
    relative to `root` and the text it must hold) where it differs, naming each."""
    for path, text in files.items():
        if write_if_changed(root / path, text):
            print(f"wrote {path}")
