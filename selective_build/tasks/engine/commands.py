"""doit commands we replace, registered as doit `COMMAND` plugins (pyproject.toml for
`doit`, tasks/engine/loader.py for `selective-build`).

`run` (also what `doit` and `doit build` run): a no-op build answered by the up-to-date
stamp ends with doit's success, once the loader has said so (Note [One run, from the
loader] in tasks/engine/loader.py).

`info`: doit's looks the task up in a dict without checking the name, so an unknown name
ends in a `KeyError` traceback, where `list`, `forget` and `clean` say `'x' is not a task.`.
"""

from __future__ import annotations

from typing import Any

from doit.cmd_info import Info
from doit.cmd_run import Run
from doit.exceptions import InvalidCommand

from selective_build.tasks.engine.stamp import NothingToDo


class BuildCommand(Run):  # type: ignore[misc]
    """doit's `run`, which ends in the verdict of the up-to-date stamp when it answers."""

    name = "run"

    def execute(self, params: Any, args: list[str]) -> Any:
        try:
            return super().execute(params, args)
        except NothingToDo as done:
            self.outstream.write(str(done))
            return 0


class CheckedInfo(Info):  # type: ignore[misc]
    """`info`, with an unknown task name refused in one line as the other commands do."""

    def _execute(self, pos_args: list[str], hide_status: bool = False) -> Any:
        known = {task.name for task in self.task_list}
        for name in pos_args:
            if name not in known:
                raise InvalidCommand(f"'{name}' is not a task.")  # as `list` says it
        return super()._execute(pos_args, hide_status)
