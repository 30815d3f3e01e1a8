"""`clean`, under the build lock, removing what the build made and nothing else.

Note [Clean]
~~~~~~~~~~~~
doit's `clean` removes the targets of the tasks it cleans. It runs here under the build
lock, as a build does: a clean started while a build runs waits for it to end (it used to
delete that build's objects under it, and the build failed in raw linker errors). And a
clean of the whole build (no task named, or `--clean-all`) leaves the build folder as the
first build found it. Besides every task's targets, it removes:
  - the files a stage writes besides its targets, by the stage's own `clean` actions
    (`remove_folder` in tasks/engine/actions.py: codegen's per-source headers, verify's
    outputs);
  - every output doit's database records as written by a task (tasks/engine/outputs.py),
    also of tasks the manifest no longer makes, while it is still what the task wrote;
  - the dtype headers codegen writes per library source, which targets share
    (layout.declared_dtypes_headers, Note [Declared dtypes]);
  - the engine's own files (layout.engine_files: database, digests, stamp, owner, lock)
    and the temporaries of builds that are gone (tasks/engine/recovery.py);
  - then each folder that held only what went, up to the build folder itself.
A file the build does not write stays, and so do its folders: a user's file in build/
survives a clean.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from doit.cmd_clean import Clean

from selective_build.tasks import layout
from selective_build.tasks.engine import recovery
from selective_build.tasks.engine.database import BuildDatabase
from selective_build.tasks.engine.outputs import as_written, recorded_outputs
from selective_build.tasks.engine.run import Run


class LockedClean(Clean):  # type: ignore[misc]
    """doit's `clean`, under the build lock and thorough for the whole build (Note [Clean])."""

    name = "clean"

    def _execute(
        self,
        dryrun: bool,
        cleandep: bool,
        cleanall: bool,
        cleanforget: bool,
        pos_args: list[str] | None = None,
    ) -> Any:
        self._whole = cleanall or not pos_args
        return super()._execute(dryrun, cleandep, cleanall, cleanforget, pos_args)

    def clean_tasks(self, tasks: list[Any], dryrun: bool, cleanforget: bool) -> None:
        run: Run = self.loader.run
        if not layout.build().is_dir():  # nothing to remove, nor a build to wait for
            super().clean_tasks(tasks, dryrun, cleanforget)
            return
        run.lock.hold()
        try:
            recorded = self._recorded(run) if self._whole else []
            super().clean_tasks(tasks, dryrun, cleanforget)  # closes the database
            if self._whole and not dryrun:
                removed = [Path(t) for task in tasks for t in task.targets]
                shared = layout.declared_dtypes_headers()  # no one target's
                removed += _remove([*recorded, *shared, *layout.engine_files()])
                recovery.sweep_temporaries()
                _remove_emptied_folders(removed)
        finally:
            run.lock.release()

    def _recorded(self, run: Run) -> list[Path]:
        """The outputs the database records, each still as its task wrote it."""
        database = self.dep_manager.backend
        if not isinstance(database, BuildDatabase):
            return []
        return [
            Path(path)
            for _, data in database.records()
            for path, record in recorded_outputs(data.get("_values_:")).items()
            if as_written(run, path, record)
        ]


def _remove(paths: Iterable[Path]) -> list[Path]:
    removed = []
    for path in paths:
        if path.is_file():
            print(f"removing file '{path}'")
            path.unlink()
            removed.append(path)
    return removed


def _remove_emptied_folders(removed: list[Path]) -> None:
    """Each folder between a removed file and the build folder's parent, deepest first,
    when nothing is left in it."""
    top = Path(os.path.abspath(layout.build())).parent
    folders = {
        parent
        for path in removed
        for parent in Path(os.path.abspath(path)).parents
        if top in parent.parents
    }
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:  # not empty (or gone already)
            pass
