"""What changed since the previous build of a target: buckets that grew or shrank, and
the manifest change behind it (operators selected or dropped, and by whom; settings)."""

from __future__ import annotations

from selective_build.codegen.size.change import (
    Moved,
    MovedBucket,
    Reselected,
    SettingChange,
    SizeChange,
)
from selective_build.codegen.size.document import SizeDocument
from selective_build.codegen.size_buckets import TOTALS
from selective_build.codegen.units import format_size


def size_change(previous: SizeDocument, current: SizeDocument) -> SizeChange | None:
    """The change from `previous` to `current`; None when no measure or bucket moved."""
    before, after = _buckets(previous), _buckets(current)
    buckets = [
        MovedBucket(name, Moved(before.get(name, 0), after.get(name, 0)))
        for name in sorted(set(before) | set(after))
        if before.get(name, 0) != after.get(name, 0)
    ]
    old_totals, new_totals = previous.report.totals(), current.report.totals()
    measures = {
        m: Moved(old_totals[m], new_totals[m]) for m in TOTALS if old_totals[m] != new_totals[m]
    }
    if not buckets and not measures:
        return None
    buckets.sort(key=lambda b: (-abs(b.moved.delta), b.name))
    old_ops, new_ops = _selections(previous), _selections(current)
    old_config, new_config = previous.config.to_dict(), current.config.to_dict()
    return SizeChange(
        measures=measures,
        buckets=tuple(buckets),
        added_operators={op: new_ops[op] for op in sorted(set(new_ops) - set(old_ops))},
        removed_operators={op: old_ops[op] for op in sorted(set(old_ops) - set(new_ops))},
        reselected_operators={
            op: Reselected(old_ops[op], new_ops[op])
            for op in sorted(set(old_ops) & set(new_ops))
            if old_ops[op] != new_ops[op]
        },
        settings={
            key: SettingChange(old_config.get(key), new_config.get(key))
            for key in sorted(set(old_config) | set(new_config))
            if old_config.get(key) != new_config.get(key)
        },
    )


def change_lines(target: str, change: SizeChange) -> list[str]:
    """The printed form of a change."""
    lines: list[str] = []
    file = change.measures.get("file")
    if file is not None:
        lines.append(
            f"size: target {target}: runner {format_size(file.before)} -> "
            f"{format_size(file.after)} ({_signed(file.delta)})"
        )
    else:
        lines.append(f"size: target {target}: runner file unchanged, buckets moved")
    for bucket in change.buckets:
        moved = bucket.moved
        verb = "grew" if moved.delta > 0 else "shrank"
        lines.append(
            f"  {bucket.name} {verb} by {abs(moved.delta):,} B "
            f"({moved.before:,} -> {moved.after:,} B)"
        )
    for op, sources in change.added_operators.items():
        lines.append(f"  because {op} is now selected by {', '.join(sources)}")
    for op, sources in change.removed_operators.items():
        lines.append(f"  because {op} is no longer selected (was: {', '.join(sources)})")
    for op, pair in change.reselected_operators.items():
        lines.append(
            f"  because {op} is selected by {', '.join(pair.after)} (was: {', '.join(pair.before)})"
        )
    for key, setting in change.settings.items():
        lines.append(f"  because the target's {key} changed: {setting.before} -> {setting.after}")
    return lines


def _buckets(document: SizeDocument) -> dict[str, int]:
    return {b.name: b.bytes for b in document.buckets}


def _selections(document: SizeDocument) -> dict[str, tuple[str, ...]]:
    found: dict[str, set[str]] = {}
    for row in document.kernel_table:
        found.setdefault(row.op, set()).update(row.selected_by)
    return {op: tuple(sorted(sources)) for op, sources in found.items()}


def _signed(delta: int) -> str:
    return f"+{delta:,} B" if delta >= 0 else f"-{-delta:,} B"
