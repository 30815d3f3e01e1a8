"""doit's console output, with progress, and failures of our own actions in one line.

Executed tasks print as `.  [n/N] name`: n tasks dealt with so far (run or up to date) of
the N known, N growing once the per-target tasks are created after codegen. Our actions
report a user's mistake themselves (one line naming the file and the fault) and then
fail; doit's default reporter would add the action's repr and its captured output.
Unexpected errors (a bug: a traceback) are still reported in full.
"""

from __future__ import annotations

from typing import Any

from doit.exceptions import BaseFail, TaskFailed
from doit.reporter import ConsoleReporter


class BuildReporter(ConsoleReporter):  # type: ignore[misc]
    desc = "console output with [n/N] progress; failures of build actions in one line"

    def initialize(self, tasks: dict[str, Any], selected_tasks: list[str]) -> None:
        # doit adds the tasks it creates later to this same dict.
        self.tasks = tasks
        self.done = 0

    def _total(self) -> int:
        return sum(1 for task in self.tasks.values() if task.actions)

    def execute_task(self, task: Any) -> None:
        if task.actions and not task.name.startswith("_"):
            self.done += 1
            self.write(f".  [{self.done}/{self._total()}] {task.title()}\n")

    def skip_uptodate(self, task: Any) -> None:
        if task.actions:
            self.done += 1
        super().skip_uptodate(task)

    def add_failure(self, task: Any, fail: BaseFail) -> None:
        if isinstance(fail, TaskFailed):
            self.write(f"failed: {task.name}\n")
        else:
            super().add_failure(task, fail)
