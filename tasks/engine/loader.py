"""The `selective-build` command: doit's own application (`DoitMain`) with a task loader
that takes the task creators from tasks/creators.py instead of a dodo.py, so it works in
any folder holding a `selective.toml`, with every doit command and option (`list`, `info`,
`clean`, `forget`, `explain`, `target:<t>`, `-n N`, `manifest=...`, `build=...`)."""

from __future__ import annotations

import sys
from typing import Any

from doit.cmd_base import TaskLoader2
from doit.loader import load_tasks

from tasks.engine.stamp import exit_if_up_to_date


class SelectiveLoader(TaskLoader2):  # type: ignore[misc]
    """Config and tasks from tasks/creators.py; a no-op build ends before either is read
    (Note [Up-to-date stamp] in tasks/engine/stamp.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.namespace: dict[str, Any] = {}

    def load_doit_config(self) -> dict[str, Any]:
        exit_if_up_to_date()
        from tasks import creators  # what a no-op build does not need

        self.namespace = dict(creators.CREATORS)
        return creators.doit_config()

    def load_tasks(self, cmd: Any, pos_args: list[str]) -> list[Any]:
        tasks: list[Any] = load_tasks(
            self.namespace,
            self.cmd_names,
            allow_delayed=cmd.execute_tasks,
            args=pos_args,
            config=self.config,
            task_opts=self.task_opts,
        )
        return tasks


def main(argv: list[str] | None = None) -> int:
    """Entry point of `selective-build`: its arguments are doit's."""
    from doit.doit_cmd import DoitMain

    from tasks.engine.database import BACKEND

    # No config files: a user's pyproject.toml may configure doit for another project.
    application = DoitMain(
        SelectiveLoader(),
        config_filenames=(),
        extra_config={
            "BACKEND": {BACKEND: "tasks.engine.database:BuildDatabase"},
            "COMMAND": {"info": "tasks.engine.commands:CheckedInfo"},  # as pyproject.toml's
        },
    )
    code = application.run(sys.argv[1:] if argv is None else argv)
    return int(code or 0)  # doit's commands may return None for success
