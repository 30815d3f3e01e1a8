"""doit commands we replace, registered as doit `COMMAND` plugins (pyproject.toml for
`doit`, tasks/engine/loader.py for `selective-build`).

doit's `info` looks the task up in a dict without checking the name: an unknown name ends
in a `KeyError` traceback, where `list`, `forget` and `clean` say `'x' is not a task.`.
"""

from __future__ import annotations

from typing import Any

from doit.cmd_info import Info
from doit.exceptions import InvalidCommand


class CheckedInfo(Info):  # type: ignore[misc]
    """`info`, with an unknown task name refused in one line as the other commands do."""

    def _execute(self, pos_args: list[str], hide_status: bool = False) -> Any:
        known = {task.name for task in self.task_list}
        for name in pos_args:
            if name not in known:
                raise InvalidCommand(f"'{name}' is not a task.")  # as `list` says it
        return super()._execute(pos_args, hide_status)
