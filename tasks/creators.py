"""Every task creator and the doit configuration: what `dodo.py` exposes to the `doit`
command and what the `selective-build` command loads (tasks/engine/loader.py). Importing this
module has no effect: the build folder, its lock and the SIGTERM handler are taken when a
run starts (tasks/engine/reporter.py), and the database is created when a run first saves
(tasks/engine/database.py), so `doit list`, `help` and `info` neither wait for a running build nor
write into build/."""

from __future__ import annotations

from typing import Any

from tasks import layout
from tasks.backend import task_backend
from tasks.build import task_build
from tasks.codegen import task_codegen
from tasks.engine.checker import CachedMD5Checker
from tasks.engine.database import BACKEND
from tasks.engine.lock import check_build_folder_owner
from tasks.engine.reporter import BuildReporter
from tasks.explain import task_explain
from tasks.models import task_model_ops
from tasks.selection import task_selection


def doit_config() -> dict[str, Any]:
    """DOIT_CONFIG, for the manifest and build folder of this run's command line. Every
    command (`list`, `info`, `clean`, `forget`, a build) stops here in one line when the
    build folder belongs to another manifest (Note [Build folder] in tasks/layout.py)."""
    check_build_folder_owner()
    return {
        "default_tasks": ["build"],
        "backend": BACKEND,
        "dep_file": str(layout.dep_file()),
        "minversion": "0.37.0",
        "verbosity": 1,
        "reporter": BuildReporter,
        "check_file_uptodate": CachedMD5Checker,
    }


CREATORS = {
    creator.__name__: creator
    for creator in (
        task_backend,
        task_build,
        task_codegen,
        task_explain,
        task_model_ops,
        task_selection,
    )
}
