"""Byte sizes written the way people write them: `24 KiB`, `1.5 MiB`, `64 kB`, `4096`.

Units are case-sensitive and unambiguous: `B`; binary `KiB`, `MiB`, `GiB` (1024-based);
`kB` (1000, the SI prefix's lowercase `k`). `KB`, `MB` and `GB` are refused with a hint:
they mean powers of 1,000 to some tools and of 1,024 to others, so a budget written with
them would not say what it limits. A size is a whole number of bytes, at most `MAX_SIZE`.
"""

from __future__ import annotations

import re
from fractions import Fraction

_UNITS = {
    "B": 1,
    "kB": 1000,
    "KiB": 1024,
    "MiB": 1024**2,
    "GiB": 1024**3,
}
# Spellings that do not say which of the two they mean, with what to write instead.
_AMBIGUOUS = {
    "kb": "KiB (1,024 B) or kB (1,000 B)",
    "mb": "MiB (1,048,576 B) or the number of kB",
    "gb": "GiB (1,073,741,824 B) or the number of kB",
}
_BY_LOWER = {unit.lower(): unit for unit in _UNITS}
# No runner, section or bucket comes near a tebibyte; above it a size is a typo (and past
# 2^64 it would not fit the tools that read size.json).
MAX_SIZE = 1 << 40
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?) ?([A-Za-z]*)", re.ASCII)
_ACCEPTED = "B, kB, KiB, MiB, GiB"


def parse_size(text: str | int) -> int:
    """Bytes in `text`; ValueError naming the accepted units when it cannot be read."""
    if isinstance(text, int):
        return _bounded(text, str(text))
    match = _SIZE.fullmatch(text.strip(" "))
    if not match:
        raise ValueError(f"size {text!r} is not a number with a unit ({_ACCEPTED})")
    number, unit = match.group(1), match.group(2) or "B"
    if unit not in _UNITS:
        hint = _AMBIGUOUS.get(unit.lower())
        if hint is not None:
            raise ValueError(f"size {text!r}: unit {unit!r} is ambiguous; write {hint}")
        if unit.lower() in _BY_LOWER:
            raise ValueError(
                f"size {text!r}: units are case-sensitive; write {_BY_LOWER[unit.lower()]}"
            )
        raise ValueError(f"size {text!r}: unknown unit {unit!r} ({_ACCEPTED})")
    size = Fraction(number) * _UNITS[unit]
    if size.denominator != 1:
        raise ValueError(f"size {text!r} is not a whole number of bytes")
    return _bounded(int(size), text)


def _bounded(size: int, text: str) -> int:
    if size < 0:
        raise ValueError(f"size {text} is negative")
    if size > MAX_SIZE:
        raise ValueError(f"size {text!r} is larger than the maximum, 1 TiB ({MAX_SIZE:,} B)")
    return size


def format_size(size: int) -> str:
    """`size` bytes for a person: `23.4 KiB (23,962 B)`."""
    if size < 1024:
        return f"{size:,} B"
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit} ({size:,} B)"
    return f"{size:,} B"
