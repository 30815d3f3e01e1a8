"""A build folder belongs to one manifest, and one build at a time runs in it.

doit writes its dependency database once, when the run ends; two runs in one directory
would run the same tasks and write the same files at once (doit notes, P7).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.config import manifest_path
from selective_build.tasks.engine import recovery, storage
from selective_build.tasks.engine.signals import interrupt_on_stop_signals


class BuildLock:
    """build/.doit.lock, held by one run from the moment it starts running tasks (or answers
    from the up-to-date stamp) until it ends: another run of the same build folder waits.

    While a run holds it, the file names the run's process; the run empties it once it has
    ended and saved what it did. A run that finds a name there knows the last one died
    (killed, or its database could not be saved) and clears up after it first
    (tasks/engine/recovery.py). `clean` may remove the file while it holds it: a run that
    waited on the removed file takes the lock afresh."""

    def __init__(self) -> None:
        self._file: TextIO | None = None  # open while held: closing it releases the lock
        self._recovering = False

    @property
    def held(self) -> bool:
        return self._file is not None

    def hold(self) -> None:
        """Wait until no other doit run holds the lock, then hold it; the build folder is
        then this manifest's (Note [Build folder] in tasks/layout.py). A folder that cannot
        be written ends the run in one line (Note [Unwritable build folder])."""
        refused = self.try_hold()
        if refused is not None:
            print(refused, file=sys.stderr)
            raise SystemExit(2)

    def try_hold(self) -> str | None:
        """`hold`, or the one line saying why the build folder cannot be written."""
        if self._file is not None:
            return None
        check_build_folder_owner()  # before the folder or its lock is touched
        interrupt_on_stop_signals()  # stopping a build that waits is one line too
        try:
            self._file = _locked(layout.lock_file())
            check_build_folder_owner()  # another manifest may have claimed it meanwhile
            record_build_folder_owner()
            self._begin(self._file)
        except OSError as error:
            if self._file is not None:
                self._file.close()  # as it was: what it names is for the next run to see
                self._file = None
            line = storage.problem(error, error.filename or layout.lock_file())
            if line is None:
                raise
            return line
        return None

    def _begin(self, lock: TextIO) -> None:
        lock.seek(0)
        if lock.read().strip():
            self._recovering = True
            recovery.after_unfinished_run(started_ns=os.fstat(lock.fileno()).st_mtime_ns)
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n")
        lock.flush()

    def release(self) -> None:
        """The run has ended and saved what it did."""
        if self._file is None:
            return
        if self._recovering:
            recovery.sweep_temporaries()  # a command the dead run left running may be done
        with contextlib.suppress(OSError):
            self._file.truncate(0)
        self._file.close()
        self._file = None


def _locked(path: Path) -> TextIO:
    """The lock file at `path`, open and locked by this process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    said = False
    while True:
        lock = path.open("a+")
        while not _try_lock(lock):
            if not said:
                print(
                    f"waiting for the other build using {path.parent}/ to finish...",
                    file=sys.stderr,
                )
                said = True
            # In short steps, not one blocking call: a stop signal landing just before the
            # call would be handled only once the call returned (a loaded machine saw Ctrl-C
            # ignored so); between steps, Python runs its handler (Note [Stop signals]).
            time.sleep(0.05)
        if _same_inode(lock, path):
            return lock
        lock.close()  # removed by the `clean` that held it: lock the file there now


def _try_lock(lock: TextIO) -> bool:
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _same_inode(lock: TextIO, path: Path) -> bool:
    try:
        here = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(lock.fileno())
    return (held.st_ino, held.st_dev) == (here.st_ino, here.st_dev)


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
