"""Every task's outputs checked against what it wrote, as a doit `uptodate` item.

doit checks a task's targets for existence only: an object with seven bytes written into it,
a truncated runner, a damaged selection.json stayed "up to date", and every task after them
went on from them (an object relinked as it was, a runner that could not be read). So after
each task runs, the stat key, size and digest of each of its targets are saved with its
values; and a task is up to date only while each target is what it wrote: by its stat key,
or, on a doubt (a key that moved or was racy, Note [Stat key] in tasks/engine/stat_key.py),
by its digest, through the run's digest cache. A task with no such record (never run by
this version of the engine, or its database lost) runs again. Bazel checks its outputs'
digests the same way.

The loader gives the item to every task that has targets (tasks/engine/loader.py), so a
stage cannot forget it.
"""

from __future__ import annotations

import os
from typing import Any

from selective_build.tasks.engine import stat_key
from selective_build.tasks.engine.run import Run
from selective_build.tasks.engine.uptodate import RunCheck


def as_written(run: Run, target: str, record: Any) -> bool:
    """Whether `target` is what its task wrote, as `record` (saved with the task's values)
    says: by its stat key, or on a doubt by its digest (module docstring)."""
    status = run.checks.stat(target)
    if status is None or not (isinstance(record, list) and len(record) == 3):
        return False
    key, size, digest = record
    if stat_key.same(key, status):
        return True
    return bool(status.st_size == size and run.digests.digest(target, status) == digest)


def recorded_outputs(values: Any) -> dict[str, Any]:
    """The outputs record among a task's saved values, {} when there is none."""
    recorded = values.get("outputs") if isinstance(values, dict) else None
    return recorded if isinstance(recorded, dict) else {}


class OutputsAsWritten(RunCheck):
    """`uptodate` item: every target of the task is what it wrote when it last ran."""

    def __repr__(self) -> str:  # what `doit info` names it by
        return "every target as the task last wrote it"

    def __call__(self, task: Any, values: dict[str, Any]) -> bool:
        task.value_savers.append(lambda: {"outputs": self._written(task.targets)})
        recorded = recorded_outputs(values)
        if not recorded:
            return False
        return all(as_written(self.run, target, recorded.get(target)) for target in task.targets)

    def _written(self, targets: list[str]) -> dict[str, Any]:
        """What the task just wrote: each target's trusted key, size and digest (a target it
        did not make is left out, and the next check runs the task again)."""
        written = {}
        for target in targets:
            try:
                status = os.stat(target)
            except OSError:
                continue
            digest = self.run.digests.digest(target, status)
            written[target] = [stat_key.trusted_key(status), status.st_size, digest]
        return written
