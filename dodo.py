"""doit entry point: the task creators of tasks/ and their configuration.

The installed `selective-build` command loads the same creators through its own task
loader (tasks/engine/loader.py); `doit` in this repository loads them from here. Importing this
file has one effect only for a plain `doit build`: a build with nothing to do ends here,
before the task modules are even imported (Note [Up-to-date stamp] in tasks/engine/stamp.py).
The build lock and the SIGTERM handler are taken when a run starts (tasks/engine/reporter.py).
"""

from tasks.engine.stamp import exit_if_up_to_date

exit_if_up_to_date()

# ruff: noqa: E402 (the imports below are what a no-op build does not need)
from tasks.creators import (
    doit_config,
    task_backend,
    task_build,
    task_codegen,
    task_explain,
    task_model_ops,
    task_selection,
)

DOIT_CONFIG = doit_config()

__all__ = [
    "DOIT_CONFIG",
    "task_backend",
    "task_build",
    "task_codegen",
    "task_explain",
    "task_model_ops",
    "task_selection",
]
