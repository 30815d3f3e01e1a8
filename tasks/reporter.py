"""doit's console output, with progress, and failures of our own actions in one line.

Executed tasks print as `.  [n/N] name`: n tasks dealt with so far (run or up to date) of
the N known, N growing once the per-target tasks are created after codegen. Tasks found up
to date print nothing one by one: a run that runs none says so in one line, and leaves
the stamp that lets the next such run end before loading any task (tasks/stamp.py). Our actions
report a user's mistake themselves (one line naming the file and the fault) and then
fail; doit's default reporter would add the action's repr and its captured output.
Unexpected errors (a bug: a traceback) are still reported in full.
"""

from __future__ import annotations

from typing import Any

from doit.exceptions import BaseFail, TaskFailed
from doit.reporter import ConsoleReporter

from tasks import stamp


class BuildReporter(ConsoleReporter):  # type: ignore[misc]
    desc = "console output with [n/N] progress; failures of build actions in one line"

    def initialize(self, tasks: dict[str, Any], selected_tasks: list[str]) -> None:
        # doit adds the tasks it creates later to this same dict.
        self.tasks = tasks
        self.selected = selected_tasks
        self.done = 0
        self.up_to_date = 0
        self.other_outcomes = 0  # executed, ignored or failed

    def _total(self) -> int:
        """The tasks with actions that the selected ones need, as far as known yet."""
        seen: set[str] = set()
        pending = list(self.selected)
        while pending:
            name = pending.pop()
            if name in seen or name not in self.tasks:
                continue
            seen.add(name)
            task = self.tasks[name]
            pending += [*task.task_dep]
        return sum(1 for name in seen if self.tasks[name].actions)

    def execute_task(self, task: Any) -> None:
        if task.actions:
            self.other_outcomes += 1
            self.done += 1
            if not task.name.startswith("_"):
                self.write(f".  [{self.done}/{self._total()}] {task.title()}\n")

    def skip_uptodate(self, task: Any) -> None:
        if task.actions:
            self.done += 1
            self.up_to_date += 1

    def skip_ignore(self, task: Any) -> None:
        self.other_outcomes += 1
        super().skip_ignore(task)

    def complete_run(self) -> None:
        super().complete_run()
        everything_checked = self.up_to_date == self._total()
        if everything_checked and not (self.other_outcomes or self.failures or self.runtime_errors):
            self.write(stamp.verdict(self.up_to_date, shortcut=False))
            stamp.record(self.up_to_date)

    def add_failure(self, task: Any, fail: BaseFail) -> None:
        self.other_outcomes += 1
        if isinstance(fail, TaskFailed):
            self.write(f"failed: {task.name}\n")
        else:
            super().add_failure(task, fail)
