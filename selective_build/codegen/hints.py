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
    """The known name most like `name`, when one is close enough to be a typo of it: among
    those difflib finds close, the fewest edits away, a swap of two neighbours counting as
    one (`sbu` is one edit from `sub`, two from `sum`)."""
    matches = difflib.get_close_matches(name, sorted(set(known)), n=5, cutoff=_CUTOFF)
    return min(matches, key=lambda match: _edits(name, match), default=None)


def _edits(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of neighbours from `a` to `b` (the
    optimal string alignment distance)."""
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[-1]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """The hint "; did you mean 'x'?" for the closest known name, or nothing."""
    match = closest(name, known)
    return f"; did you mean {match!r}?" if match is not None else ""
