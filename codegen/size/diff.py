"""What changed since the previous build of a target: buckets that grew or shrank, and
the manifest change behind it (operators selected or dropped, and by whom; settings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codegen.size_buckets import TOTALS
from codegen.units import format_size


def size_change(previous: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any] | None:
    """The change from `previous` to `current` (size.json documents); None when no
    measure or bucket moved."""
    before = _buckets(previous)
    after = _buckets(current)
    buckets: list[dict[str, Any]] = [
        {"name": name, "before": before.get(name, 0), "after": after.get(name, 0)}
        for name in sorted(set(before) | set(after))
        if before.get(name, 0) != after.get(name, 0)
    ]
    measures = {
        m: {"before": previous.get(m, 0), "after": current.get(m, 0)}
        for m in TOTALS
        if previous.get(m, 0) != current.get(m, 0)
    }
    if not buckets and not measures:
        return None
    buckets.sort(key=lambda b: (-abs(b["after"] - b["before"]), b["name"]))
    old_ops, new_ops = _selections(previous), _selections(current)
    old_config, new_config = previous.get("config", {}), current.get("config", {})
    return {
        "measures": measures,
        "buckets": buckets,
        "added_operators": {op: new_ops[op] for op in sorted(set(new_ops) - set(old_ops))},
        "removed_operators": {op: old_ops[op] for op in sorted(set(old_ops) - set(new_ops))},
        "reselected_operators": {
            op: {"before": old_ops[op], "after": new_ops[op]}
            for op in sorted(set(old_ops) & set(new_ops))
            if old_ops[op] != new_ops[op]
        },
        "settings": {
            key: {"before": old_config.get(key), "after": new_config.get(key)}
            for key in sorted(set(old_config) | set(new_config))
            if old_config.get(key) != new_config.get(key)
        },
    }


def change_lines(target: str, change: Mapping[str, Any]) -> list[str]:
    """The printed form of `size_change`'s result."""
    lines: list[str] = []
    file = change["measures"].get("file")
    if file is not None:
        delta = file["after"] - file["before"]
        lines.append(
            f"size: target {target}: runner {format_size(file['before'])} -> "
            f"{format_size(file['after'])} ({_signed(delta)})"
        )
    else:
        lines.append(f"size: target {target}: runner file unchanged, buckets moved")
    for bucket in change["buckets"]:
        delta = bucket["after"] - bucket["before"]
        verb = "grew" if delta > 0 else "shrank"
        lines.append(
            f"  {bucket['name']} {verb} by {abs(delta):,} B "
            f"({bucket['before']:,} -> {bucket['after']:,} B)"
        )
    for op, sources in change["added_operators"].items():
        lines.append(f"  because {op} is now selected by {', '.join(sources)}")
    for op, sources in change["removed_operators"].items():
        lines.append(f"  because {op} is no longer selected (was: {', '.join(sources)})")
    for op, pair in change["reselected_operators"].items():
        lines.append(
            f"  because {op} is selected by {', '.join(pair['after'])} "
            f"(was: {', '.join(pair['before'])})"
        )
    for key, pair in change["settings"].items():
        lines.append(f"  because the target's {key} changed: {pair['before']} -> {pair['after']}")
    return lines


def _buckets(document: Mapping[str, Any]) -> dict[str, int]:
    return {b["name"]: int(b["bytes"]) for b in document.get("buckets", [])}


def _selections(document: Mapping[str, Any]) -> dict[str, list[str]]:
    found: dict[str, set[str]] = {}
    for row in document.get("kernel_table", []):
        found.setdefault(row["op"], set()).update(row["selected_by"])
    return {op: sorted(sources) for op, sources in found.items()}


def _signed(delta: int) -> str:
    return f"+{delta:,} B" if delta >= 0 else f"-{-delta:,} B"
