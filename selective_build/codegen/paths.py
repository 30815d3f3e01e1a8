"""What a path given as an input file is, said before anything opens it.

Opening a named pipe blocks until a writer comes, a device can stream forever, a directory
or a symbolic link loop fails with a message about something else. Every input file
(manifest entries, `gen_oplist` arguments, models, verification references) is checked
here first, so the user reads one line saying what the path is.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from selective_build.codegen.errors import InputError

_KINDS = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISFIFO, "is a named pipe"),
    (stat.S_ISCHR, "is a character device"),
    (stat.S_ISBLK, "is a block device"),
    (stat.S_ISSOCK, "is a socket"),
)


def not_a_regular_file(path: Path) -> str | None:
    """None when `path` names a regular file (through any symbolic links), else what it is."""
    try:
        os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:
        return "has a name that is not UTF-8"
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if error.errno == errno.ENOENT:
            return "is a broken symbolic link" if os.path.islink(path) else "does not exist"
        if error.errno == errno.ELOOP:
            return "is a symbolic link loop"
        if error.errno == errno.ENAMETOOLONG:
            return "has a name too long for the file system"
        if error.errno == errno.ENOTDIR:
            return "does not exist (a parent is not a directory)"
        return f"cannot be read: {error.strerror}"
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None if stat.S_ISREG(mode) else "is not a regular file"


def require_regular_file(path: Path) -> None:
    """InputError naming `path` and what it is, unless it is a regular file."""
    problem = not_a_regular_file(path)
    if problem is not None:
        raise InputError(path, problem)
