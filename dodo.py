"""doit entry point: configuration and the task creators of tasks/."""

# First, before the task modules are even imported: a `doit build` with nothing to do
# ends here (Note [Up-to-date stamp] in tasks/stamp.py).
from tasks.stamp import exit_if_up_to_date

exit_if_up_to_date()

# ruff: noqa: E402 (the imports below are what a no-op build does not need)
from tasks import layout
from tasks.backend import task_backend
from tasks.build import task_build
from tasks.checker import CachedMD5Checker
from tasks.codegen import task_codegen
from tasks.explain import task_explain
from tasks.guard import hold_build_lock, terminate_like_interrupt
from tasks.models import task_model_ops
from tasks.reporter import BuildReporter
from tasks.selection import task_selection

# doit opens its dependency database in build/ before any task can create the folder.
layout.build().mkdir(parents=True, exist_ok=True)
hold_build_lock()
terminate_like_interrupt()

DOIT_CONFIG = {
    "default_tasks": ["build"],
    "backend": "sqlite3",
    "dep_file": str(layout.dep_file()),
    "minversion": "0.37.0",
    "verbosity": 1,
    "reporter": BuildReporter,
    "check_file_uptodate": CachedMD5Checker,
}

__all__ = [
    "DOIT_CONFIG",
    "task_backend",
    "task_build",
    "task_codegen",
    "task_explain",
    "task_model_ops",
    "task_selection",
]
