"""The `selective-build` command: doit's own application with the engine's task loader
(tasks/engine/loader.py) and the task creators of tasks/creators.py, so it works in any
folder holding a `selective.toml`, no dodo.py needed."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from selective_build.tasks.engine.database import BACKEND
from selective_build.tasks.engine.loader import BuildLoader


class SelectiveLoader(BuildLoader):
    """The build loader, with the task creators of tasks/creators.py."""

    program = "selective-build"  # what hints tell the user to type (Request.program)

    def creators(self) -> Mapping[str, Any]:
        from selective_build.tasks.creators import CREATORS  # what a no-op build does not need

        return CREATORS


def main(argv: list[str] | None = None) -> int:
    """The doit application of `selective-build` (whose entry point, tasks/cli.py main,
    answers --help and --version and finds the manifest first): doit's own application
    (`DoitMain`) with the task
    creators of tasks/creators.py, so it takes every doit command and option (`list`,
    `info`, `clean`, `forget`, `explain`, `target:<t>`, `-n N`, `manifest=...`, `build=...`)."""
    from doit.doit_cmd import DoitMain

    # No config files: a user's pyproject.toml may configure doit for another project. The
    # plugins are pyproject.toml's, for this repository's `doit`.
    application = DoitMain(
        SelectiveLoader(),
        config_filenames=(),
        extra_config={
            "BACKEND": {BACKEND: "selective_build.tasks.engine.database:BuildDatabase"},
            "COMMAND": {
                "run": "selective_build.tasks.engine.commands:BuildCommand",
                "info": "selective_build.tasks.engine.commands:CheckedInfo",
                "clean": "selective_build.tasks.engine.clean:LockedClean",
                # What the command does, then doit's help.
                "help": "selective_build.tasks.cli:SelectiveHelp",
            },
        },
    )
    code = application.run(sys.argv[1:] if argv is None else argv)
    return int(code or 0)  # doit's commands may return None for success
