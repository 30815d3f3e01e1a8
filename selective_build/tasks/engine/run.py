"""The state of one doit run, made by the engine's task loader when the run starts.

Everything the engine remembers while doit works lives here, owned by one run and reached
from it: the loader makes the run (tasks/engine/loader.py) and hands it to what doit builds
from the configuration it returns (the checker, the reporter), to the task creators (their
`reads`), and, through doit's checker, to `uptodate` checks (tasks/engine/depfile.py). Two
runs in one process (the tests, an application calling doit twice) share nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from selective_build.tasks.engine.checker import DigestCache
from selective_build.tasks.engine.evidence import Evidence, Reads
from selective_build.tasks.engine.lock import BuildLock


@dataclass(frozen=True)
class Request:
    """What the command line asks of the run, as doit parsed it: given to any task creator
    that takes a `request` parameter, so that none reads sys.argv."""

    command: str = "run"
    names: tuple[str, ...] = ()  # the task names and options after the command
    runs_tasks: bool = True  # false for the commands that only inspect (list, info...)
    program: str = "doit"  # the command a message tells the user to type: `doit build`


class Run:
    def __init__(self, digests: Path | None = None) -> None:
        self.request = Request()  # set by the loader once it knows the command
        # What the task definitions were made from; the task creators read through `reads`.
        self.definitions = Evidence()
        self.reads = Reads(self.definitions)
        # What the up-to-date checks looked at (the checker, the depfile check).
        self.checks = Evidence()
        # Whether this is a plain `doit build`, the only command the stamp answers or
        # records (tasks/engine/stamp.py); the loader decides once it knows the command.
        self.plain_build = False
        self.digests = DigestCache(digests)  # None: build/.digests.json
        self.lock = BuildLock()
        self._headers: dict[str, os.stat_result | None] = {}

    def header_status(self, path: str) -> os.stat_result | None:
        """Objects share most of their headers: each is stat'ed once per round of checks."""
        if path not in self._headers:
            self._headers[path] = self.checks.stat(path)
        return self._headers[path]

    def forget_header_stats(self) -> None:
        """Stat every header afresh from now on (outputs and headers may have moved)."""
        self._headers.clear()

    def finish(self) -> None:
        """The run is over, and doit has saved it: keep the digests it computed for the
        next one, and leave the lock saying so (tasks/engine/lock.py)."""
        try:
            self.digests.save()
        finally:
            self.lock.release()
