"""doit's console output, with failures of our own actions reduced to one line.

Our actions report a user's mistake themselves (one line naming the file and the fault)
and then fail; doit's default reporter would add the action's repr and its captured
output. Unexpected errors (a bug: a traceback) are still reported in full.
"""

from __future__ import annotations

from typing import Any

from doit.exceptions import BaseFail, TaskFailed
from doit.reporter import ConsoleReporter


class BuildReporter(ConsoleReporter):  # type: ignore[misc]
    desc = "console output; failures of build actions in one line"

    def add_failure(self, task: Any, fail: BaseFail) -> None:
        if isinstance(fail, TaskFailed):
            self.write(f"failed: {task.name}\n")
        else:
            super().add_failure(task, fail)
