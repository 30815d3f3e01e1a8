"""Every task creator: what `dodo.py` exposes to the `doit` command and what the
`selective-build` command loads (tasks/engine/loader.py). Importing this module has no
effect: the configuration, the build folder, its lock and the SIGTERM handler come with a
run (Note [One run, from the loader] in tasks/engine/loader.py)."""

from __future__ import annotations

from tasks.backend import task_backend
from tasks.build import task_build
from tasks.codegen import task_codegen
from tasks.explain import task_explain
from tasks.models import task_model_ops
from tasks.selection import task_selection

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
