"""Byte sizes written the way people write them: `24 KiB`, `1.5 MB`, `4096`."""

from __future__ import annotations

import re

_UNITS = {
    "b": 1,
    "kb": 1000,
    "mb": 1000**2,
    "kib": 1024,
    "mib": 1024**2,
}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*")


def parse_size(text: str | int) -> int:
    """Bytes in `text`; ValueError naming the accepted units when it cannot be read."""
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"size {text} is negative")
        return text
    match = _SIZE.fullmatch(text)
    unit = match.group(2).lower() if match else ""
    if not match or (unit and unit not in _UNITS):
        raise ValueError(f"size {text!r} is not a number with a unit (B, kB, MB, KiB, MiB)")
    return int(float(match.group(1)) * _UNITS[unit or "b"])


def format_size(size: int) -> str:
    """`size` bytes for a person: `23.4 KiB (23,962 B)`."""
    if size < 1024:
        return f"{size:,} B"
    for unit, scale in (("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit} ({size:,} B)"
    return f"{size:,} B"
