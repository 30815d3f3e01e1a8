"""The base of the engine's `uptodate` items: each works with the run of doit's checker."""

from __future__ import annotations

from typing import Any

from doit.dependency import Dependency, UptodateCalculator

from selective_build.tasks.engine.checker import CachedMD5Checker
from selective_build.tasks.engine.run import Run


class RunCheck(UptodateCalculator):  # type: ignore[misc]
    """An `uptodate` item that looks at files through a run (its evidence, its digests).

    doit hands an `UptodateCalculator` its dependency manager before each check: the run
    comes from the manager's checker (tasks/engine/checker.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.run = Run()  # until doit sets it up: a check outside any run keeps to itself

    def setup(self, dep_manager: Dependency, tasks_dict: dict[str, Any]) -> None:
        super().setup(dep_manager, tasks_dict)
        checker = dep_manager.checker
        # Not with `--check_file_uptodate ...`, nor a checker made outside a run.
        if isinstance(checker, CachedMD5Checker) and isinstance(checker.run, Run):
            self.run = checker.run
