"""Every task creator: what `dodo.py` exposes to the `doit` command and what the
`selective-build` command loads (tasks/command.py): the creators of the stages of
tasks/stages.py that have their own, the backend that makes the others per target, `build`
and `explain`. Importing this module has no effect: the configuration, the build folder, its
lock and the SIGTERM handler come with a run (Note [One run, from the loader] in
tasks/engine/loader.py)."""

from __future__ import annotations

from selective_build.tasks.backend import task_backend
from selective_build.tasks.build import task_build
from selective_build.tasks.explain import task_explain
from selective_build.tasks.stages import STAGES

CREATORS = {
    creator.__name__: creator
    for creator in (
        *(stage.creator for stage in STAGES if stage.creator),
        task_backend,
        task_build,
        task_explain,
    )
}
