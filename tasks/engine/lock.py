"""A build folder belongs to one manifest, and one build at a time runs in it.

doit writes its dependency database once, when the run ends; two runs in one directory
would run the same tasks and write the same files at once (doit notes, P7).
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path
from typing import TextIO

from codegen.writer import write_if_changed
from tasks import layout
from tasks.config import manifest_path
from tasks.engine.signals import interrupt_on_stop_signals


class BuildLock:
    """build/.doit.lock, held by one run from the moment it starts running tasks (or answers
    from the up-to-date stamp) until it ends: another run of the same build folder waits."""

    def __init__(self) -> None:
        self._file: TextIO | None = None  # open while held: closing it releases the lock

    @property
    def held(self) -> bool:
        return self._file is not None

    def hold(self) -> None:
        """Wait until no other doit run holds the lock, then hold it; the build folder is
        then this manifest's (Note [Build folder] in tasks/layout.py)."""
        if self._file is not None:
            return
        check_build_folder_owner()  # before the folder or its lock is touched
        interrupt_on_stop_signals()  # stopping a build that waits is one line too
        layout.build().mkdir(parents=True, exist_ok=True)
        lock = (layout.build() / ".doit.lock").open("a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(
                f"waiting for the other build using {layout.build()}/ to finish...", file=sys.stderr
            )
            fcntl.flock(lock, fcntl.LOCK_EX)
        self._file = lock
        check_build_folder_owner()  # another manifest may have claimed it while this one waited
        record_build_folder_owner()

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def record_build_folder_owner() -> None:
    """Write build/.manifest naming this manifest: whatever first writes into the build
    folder claims it (a build, or a command that saves only doit's database)."""
    write_if_changed(layout.owner_record(), _owner_text())


def check_build_folder_owner() -> None:
    """Stop in one line when the build folder belongs to another manifest that still
    exists (one that is gone leaves its folder to the next manifest that uses it)."""
    owner = _recorded_owner()
    if owner is None or not os.path.exists(owner) or _same_file(owner, manifest_path()):
        return
    build, mine = os.path.normpath(layout.build()), manifest_path()
    print(
        f"error: {build}/ is the build folder of {os.path.normpath(layout.local(Path(owner)))}"
        f" ({layout.owner_record()}): {mine} cannot use it too; give {mine} a folder of its"
        f' own with a top-level key build = "DIR" or with build=DIR on the command line',
        file=sys.stderr,
    )
    raise SystemExit(2)


def _recorded_owner() -> str | None:
    try:
        name = layout.owner_record().read_text(encoding="utf-8").rstrip("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return os.path.join(layout.build(), name) if name else None


def _same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    return os.path.realpath(first) == os.path.realpath(second)


def _owner_text() -> str:
    """The manifest's path relative to the build folder: moving the project moves both."""
    return os.path.relpath(os.path.abspath(manifest_path()), os.path.abspath(layout.build())) + "\n"
