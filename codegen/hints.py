"""The fix a one-line error can name: the known name closest to a mistyped one, and the
project's spelling of a dtype written as numpy or PyTorch spell it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# How close a known name must be to be offered (difflib's ratio: 2 * matches / total
# length). 0.6, difflib's own default, offers `sub.out` for `sbu.out` and `portable` for
# `portabel`, and offers nothing for a name that merely shares a namespace.
_CUTOFF = 0.6


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name most like `name`, when one is close enough to be a typo of it."""
    matches = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=_CUTOFF)
    return matches[0] if matches else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """"; did you mean 'x'?" for the closest known name, or nothing."""
    match = closest(name, known)
    return f"; did you mean {match!r}?" if match is not None else ""
