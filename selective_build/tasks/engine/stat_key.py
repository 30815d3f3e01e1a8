"""When a file's stat data may stand for its content, and when the content must be hashed.

Note [Stat key]
~~~~~~~~~~~~~~~
The engine takes a file's content as unchanged without reading it only when its stat key is
the one it had when the content was last known: (mtime ns, ctime ns, size, inode, device),
the fields git's index keeps. The mtime alone proves nothing: `cp -p`, `touch -r`, `rsync -a`
and `tar x` set it to whatever they like, and a kernel source edited to the same size with its
mtime restored would keep the old binary. The ctime cannot be set: the kernel stamps it on
every change of content or metadata, restoring the mtime included. The inode and device
change when the file is replaced by another or the folder moves to another disk. A key that
differs in any field is only a doubt, never a verdict: the content is then hashed and
compared, so a file touched or copied back unchanged rebuilds nothing.

A key taken in the very tick its file changed proves nothing either (git's "racy" entries):
a filesystem stamps times with some granularity (a kernel tick, a second on some), so a
second change of the same size within that tick keeps the key. A key is trusted only when it
was taken more than that granularity after the file's last change; a key taken sooner is
recorded as racy (None), and the next look at the file hashes it.

Every record that lets a look skip a hash goes by this rule: the file states of doit's
database and the digest cache (tasks/engine/checker.py), the outputs each task wrote
(tasks/engine/outputs.py), the depfile headers (tasks/engine/depfile.py) and the no-op stamp
(tasks/engine/stamp.py, through tasks/engine/evidence.py).
"""

from __future__ import annotations

import os
import time

Key = tuple[int, int, int, int, int]  # (mtime ns, ctime ns, size, inode, device)

# The time stamps of a filesystem that keeps no fraction of a second (FAT keeps two seconds'
# worth); of any other, a few kernel ticks.
_COARSE_WINDOW_NS = 2_000_000_000
_FINE_WINDOW_NS = 20_000_000


def key(status: os.stat_result) -> Key:
    return (
        status.st_mtime_ns,
        status.st_ctime_ns,
        status.st_size,
        status.st_ino,
        status.st_dev,
    )


def racy(file_key: Key, now_ns: int | None = None) -> bool:
    """Whether a change within the filesystem's time granularity of now could keep the
    file's key (Note [Stat key])."""
    changed = max(file_key[0], file_key[1])
    coarse = changed % 1_000_000_000 == 0
    window = _COARSE_WINDOW_NS if coarse else _FINE_WINDOW_NS
    return (time.time_ns() if now_ns is None else now_ns) - changed < window


def trusted_key(status: os.stat_result) -> Key | None:
    """The key to record for a file just looked at: None when it is racy."""
    file_key = key(status)
    return None if racy(file_key) else file_key


def same(recorded: object, status: os.stat_result) -> bool:
    """Whether a recorded key (a list once it went through JSON) vouches for `status`."""
    return isinstance(recorded, list | tuple) and tuple(recorded) == key(status)
