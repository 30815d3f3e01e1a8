"""After a `doit build` that ran tasks, check every task again as the next run would.

The stamp of Note [Up-to-date stamp] needs evidence that every task is up to date, taken
by the checks themselves. A run that executed tasks has none: its checks saw outputs
before they were rewritten. So once doit has saved the run, its checks are run again on
the same tasks against the saved database (a few hundredths of a second, in a build that
compiled or linked something), and when every task passes, the stamp is written; the
first no-op after a build is then as fast as the later ones.
"""

from __future__ import annotations

import functools
from typing import Any

from doit.dependency import Dependency
from doit.globals import Globals

from selective_build.tasks.engine import stamp
from selective_build.tasks.engine.checker import CachedMD5Checker
from selective_build.tasks.engine.run import Run


def record_if_up_to_date(run: Run, tasks: dict[str, Any], names: list[str]) -> None:
    """Write the stamp if every one of `names` (tasks with actions) is now up to date."""
    saved = Globals.dep_manager  # doit's registry of the database this run saved to
    if saved is None:
        return
    run.forget_header_stats()
    run.checks.restart()
    manager = Dependency(
        saved.db_class,
        saved.name,
        checker_cls=functools.partial(CachedMD5Checker, run),
        codec_cls=type(saved.backend.codec),
    )
    try:
        up_to_date = all(
            manager.get_status(tasks[name], tasks).status == "up-to-date" for name in names
        )
    finally:
        manager.close()
    if up_to_date:
        stamp.record(run, len(names))
