"""One build at a time per directory, and SIGTERM handled like Ctrl-C.

doit writes its dependency database once, when the run ends; two runs in one directory
would run the same tasks and write the same files at once (doit notes, P7), and a run
killed by SIGTERM would save nothing of what it finished (P8).
"""

from __future__ import annotations

import fcntl
import signal
import sys
from typing import TextIO

from tasks import layout

_held: list[TextIO] = []  # keeps the locked file open for the life of the process


def hold_build_lock() -> None:
    """Wait until no other doit run holds build/.doit.lock, then hold it until exit."""
    if _held:
        return
    layout.build().mkdir(parents=True, exist_ok=True)
    lock = (layout.build() / ".doit.lock").open("a")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"waiting for the other build using {layout.build()}/ to finish...", file=sys.stderr)
        fcntl.flock(lock, fcntl.LOCK_EX)
    _held.append(lock)


def terminate_like_interrupt() -> None:
    """SIGTERM raises KeyboardInterrupt, so doit saves the tasks that finished."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)
