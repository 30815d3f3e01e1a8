"""What a run that did not finish leaves behind, cleared by the next run that holds the lock.

Note [After an unfinished run]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
A run killed at any moment (kill -9, a CI timeout, the machine going down), or whose
database could not be saved (a full disk), saved nothing of what it did: the next build runs
its tasks again. Outputs are replaced atomically, so none is half written; two kinds of
file still differ from what an uninterrupted build leaves, and the next run that holds the
lock (tasks/engine/lock.py tells it the last one did not finish) clears them first:
  - temporaries `<name>.<pid>.tmp` (Note [Temporaries] in codegen/writer.py) whose process
    is gone: the dead run's own, and those of the commands it left running, which may
    still finish after the next run began, so the next run sweeps again when it ends;
  - size reports the dead run wrote: a report is read back as history by later builds
    (the size estimate and the size change, Note [Size estimate]), and one the dead run
    measured would give the next build an estimate that a build never interrupted does not
    have. Only the reports written since the dead run took the lock are removed (it saved
    nothing, so its size tasks run again and write them anew); those of finished runs stay.
So after an unfinished run, the next build ends with every output byte for byte as a build
that was never interrupted (tests/test_killed_builds.py).
"""

from __future__ import annotations

import os

from selective_build.codegen.writer import TEMPORARY
from selective_build.tasks import layout


def after_unfinished_run(started_ns: int) -> None:
    """Clear what the run that took the lock at `started_ns` (the lock file's mtime, on
    the build folder's own clock) left behind."""
    sweep_temporaries()
    for report in layout.size_reports():
        try:
            if os.stat(report).st_ctime_ns >= started_ns:
                os.unlink(report)
        except FileNotFoundError:
            pass


def sweep_temporaries() -> None:
    """Remove every temporary under the build folder whose process is gone."""
    for folder, _, files in os.walk(layout.build()):
        for name in files:
            match = TEMPORARY.fullmatch(name)
            if match and not _alive(int(match.group(1))):
                try:
                    os.unlink(os.path.join(folder, name))
                except FileNotFoundError:
                    pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True
