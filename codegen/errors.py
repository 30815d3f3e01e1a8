"""The one exception type for user mistakes: printed as one line, never a traceback."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """A bad input: the file (or manifest key path) it came from and what is wrong."""

    def __init__(self, source: str | Path, problem: str) -> None:
        super().__init__(f"{source}: {problem}")
        self.source = str(source)
        self.problem = problem
