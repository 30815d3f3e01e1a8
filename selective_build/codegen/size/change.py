"""What changed since the previous build of a target (size.json `change`), as a typed value.

Made by codegen.size.diff.size_change from the two size documents; read back with the
rest of the document, so the build's summary prints the lines size.md has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from selective_build.codegen.size.fields import (
    JsonValue,
    integer,
    items,
    json_value,
    mapping,
    text,
    texts,
)


@dataclass(frozen=True)
class Moved:
    """A measure or bucket that moved: its bytes before and after."""

    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class MovedBucket:
    name: str
    moved: Moved


@dataclass(frozen=True)
class Reselected:
    """An operator kept, now selected by other sources."""

    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class SettingChange:
    before: JsonValue  # None: the setting was not recorded
    after: JsonValue


@dataclass(frozen=True)
class SizeChange:
    measures: Mapping[str, Moved]  # of TOTALS, those that moved
    buckets: tuple[MovedBucket, ...]  # the largest move first
    added_operators: Mapping[str, tuple[str, ...]]  # operator -> who selects it now
    removed_operators: Mapping[str, tuple[str, ...]]  # operator -> who selected it
    reselected_operators: Mapping[str, Reselected]
    settings: Mapping[str, SettingChange]  # TargetSettings' JSON keys that changed

    def to_dict(self) -> dict[str, JsonValue]:
        return {
            "measures": {name: _moved(m) for name, m in self.measures.items()},
            "buckets": [{"name": b.name, **_moved(b.moved)} for b in self.buckets],
            "added_operators": {op: list(s) for op, s in self.added_operators.items()},
            "removed_operators": {op: list(s) for op, s in self.removed_operators.items()},
            "reselected_operators": {
                op: {"before": list(r.before), "after": list(r.after)}
                for op, r in self.reselected_operators.items()
            },
            "settings": {
                key: {"before": s.before, "after": s.after} for key, s in self.settings.items()
            },
        }

    @staticmethod
    def from_dict(raw: object) -> SizeChange:
        """The change of its JSON form (TypeError or KeyError when it is not one)."""
        fields = mapping(raw)
        buckets = [mapping(row) for row in items(fields["buckets"])]
        return SizeChange(
            measures={text(k): _read_moved(v) for k, v in mapping(fields["measures"]).items()},
            buckets=tuple(MovedBucket(text(row["name"]), _read_moved(row)) for row in buckets),
            added_operators=_sources(fields["added_operators"]),
            removed_operators=_sources(fields["removed_operators"]),
            reselected_operators={
                text(op): Reselected(texts(mapping(pair)["before"]), texts(mapping(pair)["after"]))
                for op, pair in mapping(fields["reselected_operators"]).items()
            },
            settings={
                text(key): SettingChange(
                    json_value(mapping(pair)["before"]), json_value(mapping(pair)["after"])
                )
                for key, pair in mapping(fields["settings"]).items()
            },
        )


def _moved(moved: Moved) -> dict[str, JsonValue]:
    return {"before": moved.before, "after": moved.after}


def _read_moved(raw: object) -> Moved:
    fields = mapping(raw)
    return Moved(integer(fields["before"]), integer(fields["after"]))


def _sources(raw: object) -> dict[str, tuple[str, ...]]:
    return {text(op): texts(sources) for op, sources in mapping(raw).items()}
