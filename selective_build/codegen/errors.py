"""The one exception type for user mistakes: printed as one line, never a traceback."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """A bad input: the file (or manifest key path) it came from and what is wrong.

    The message is one line whatever the input held: characters that are not printable
    (a newline or an escape sequence in a name, a byte of a name that is not UTF-8) are
    written as Python escapes, so they can neither break the line nor reach the terminal.
    """

    def __init__(self, source: str | Path, problem: str) -> None:
        super().__init__(printable(f"{source}: {problem}"))
        self.source = str(source)
        self.problem = problem


def printable(text: str) -> str:
    """`text` with each character that is not printable escaped (`\\n`, `\\x1b`, `\\udcff`)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
