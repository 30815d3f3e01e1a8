"""A build folder that cannot be written: a full disk or a read-only folder, in one line.

Note [Unwritable build folder]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Every write of a build lands in its build folder: outputs and their temporaries, doit's
database, the engine's own files. When the disk is full (ENOSPC, EDQUOT) or the folder
cannot be written (EROFS; EACCES or EPERM for a user without the right), the write fails
wherever it happens: in a task's action, in a compiler, when doit saves its database, when
the build takes its lock. Each place ends in one line naming the file and what to do, never
a traceback. Outputs are written atomically and the database only when the run ends, so
what is left is consistent: once there is space, the next build goes on from what was
saved and ends with the bytes of a build that never failed (tests/test_storage_failures.py).

A leaf: the code every compile and link runs imports it (Note [Tool step code]).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
READ_ONLY = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


def fix(code: int | None) -> str | None:
    """What to do about a refused write, by its errno; None for any other error."""
    if code in FULL:
        return "free some space on its disk, then build again"
    if code in READ_ONLY:
        return "make the build folder writable, or build elsewhere with build=DIR"
    return None


def problem(error: OSError, file: str | Path | None = None) -> str | None:
    """The one line for `error`, a write refused for want of space or permission (`file`:
    the file written, when the error does not name it); None for any other error."""
    what = fix(error.errno)
    if what is None:
        return None
    name = file if file is not None else error.filename
    return f"error: cannot write {name}: {error.strerror}: {what}"


def full_device_line(log: str, file: str | Path) -> str | None:
    """The one line for a tool that failed writing `file` because the disk is full or the
    folder read-only (its own message says so, in the C library's words); else None."""
    for code in (errno.ENOSPC, errno.EROFS):
        if os.strerror(code) in log:
            return f"error: cannot write {file}: {os.strerror(code)}: {fix(code)}"
    return None
