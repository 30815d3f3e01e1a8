"""size.json as a typed value: the size document and its one codec.

`to_json` writes the document as the size stage always has (sorted keys, two-space
indent), so a report written before this module existed reads back, and one read back
writes the same bytes. `from_json` is how anything but the size stage reads a report.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from codegen.errors import InputError
from codegen.size.budget import Breach
from codegen.size.elf import Segment
from codegen.size.prebuilt import PrebuiltFigures
from codegen.size.totals import SizeReport


@dataclass(frozen=True)
class OperatorInfo:
    """One registered kernel: who provides it, where its bytes are, who selected it."""

    op: str
    key: str
    library: str
    function: str
    bucket: str
    selected_by: tuple[str, ...]  # models and manifest entries


@dataclass(frozen=True)
class BucketRow:
    """One bucket as reported: its bytes, share of the file, and who brought it in."""

    name: str
    bytes: int
    code: int
    bss: int
    share: float  # percent of the file, one decimal
    doc: str
    operators: tuple[str, ...]
    selected_by: tuple[str, ...]
    dtypes: Mapping[str, int]
    top_symbols: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class BaselineFigures:
    target: str
    file: int
    saved: int
    ratio: float | None  # this runner / the baseline's, three decimals


@dataclass(frozen=True)
class Closeness:
    """How codegen's estimate compared with the measured file (Note [Size estimate])."""

    estimated: int
    measured: int
    error: int
    error_percent: float
    unmeasured: tuple[str, ...]


@dataclass(frozen=True)
class LibraryFigures:
    """The target's static library: text, data and bss summed over its objects."""

    text: int
    data: int
    bss: int
    objects: int
    file: int


@dataclass(frozen=True)
class LibraryOnly:
    """A library-only target's two minimal apps (Note [Library-only size])."""

    with_library: int
    without_library: int


@dataclass(frozen=True)
class SizeDocument:
    report: SizeReport  # the contract's fields, at the top level of the JSON
    target: str
    registry_bytes: int
    budgets: Mapping[str, int]  # measure or bucket -> bytes (includes `file`)
    breaches: tuple[Breach, ...]
    buckets: tuple[BucketRow, ...]
    kernel_table: tuple[OperatorInfo, ...]
    model_savings: Mapping[str, int]
    config: Mapping[str, Any]  # the target's manifest settings (JSON values), for diffs
    baseline: BaselineFigures | None
    segments: tuple[Segment, ...]
    change: Mapping[str, Any] | None = None  # codegen.size.diff.size_change's result
    estimate: Closeness | None = None
    library: LibraryFigures | None = None
    library_only: LibraryOnly | None = None  # only for a library-only target
    prebuilt: PrebuiltFigures | None = None  # only on a runtime that ships libraries

    @property
    def is_library_only(self) -> bool:
        return self.library_only is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, with lists where the document has tuples (as JSON reads back)."""
        document: dict[str, Any] = asdict(self.report)
        document.update(
            {
                "target": self.target,
                "registry_bytes": self.registry_bytes,
                "budgets": dict(sorted(self.budgets.items())),
                "breaches": [asdict(b) for b in self.breaches],
                "buckets": [asdict(b) for b in self.buckets],
                "kernel_table": [asdict(o) for o in self.kernel_table],
                "model_savings": dict(self.model_savings),
                "config": dict(self.config),
                "baseline": None if self.baseline is None else asdict(self.baseline),
                "change": None if self.change is None else dict(self.change),
                "segments": [asdict(s) for s in self.segments],
                "estimate": None if self.estimate is None else asdict(self.estimate),
                "library": None if self.library is None else asdict(self.library),
            }
        )
        if self.library_only is not None:
            document["library_only"] = asdict(self.library_only)
        if self.prebuilt is not None:
            document["prebuilt"] = self.prebuilt.to_dict()
        plain: dict[str, Any] = _plain(document)
        return plain

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n"

    @staticmethod
    def from_json(text: str, source: str | Path) -> SizeDocument:
        """The document `text` holds; an InputError naming `source` when it is not one."""
        try:
            return _document(json.loads(text))
        except ValueError as error:  # json.JSONDecodeError is one
            raise InputError(source, f"not a size report: {error}") from None
        except KeyError as error:
            raise InputError(source, f"not a size report: no {error}") from None
        except (TypeError, AttributeError) as error:
            raise InputError(source, f"not a size report: {error}") from None

    @staticmethod
    def read(path: Path) -> SizeDocument:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise InputError(path, f"cannot read: {error.strerror}") from None
        return SizeDocument.from_json(text, path)

    def with_extras(
        self,
        change: Mapping[str, Any] | None,
        estimate: Closeness | None,
        library: LibraryFigures,
        library_only: LibraryOnly | None,
    ) -> SizeDocument:
        return replace(
            self, change=change, estimate=estimate, library=library, library_only=library_only
        )


def _plain(value: Any) -> Any:
    """`value` with every tuple a list and every mapping a dict (asdict keeps tuples)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _int(value: Any) -> int:
    # bool is an int to Python, not to a size report.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _number(value: Any) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise TypeError(f"expected a number, got {value!r}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _strs(values: Any) -> tuple[str, ...]:
    return tuple(_str(v) for v in values)


def _ints(values: Mapping[str, Any]) -> dict[str, int]:
    return {_str(k): _int(v) for k, v in values.items()}


def _optional_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _document(raw: Any) -> SizeDocument:
    if not isinstance(raw, dict):
        raise TypeError("expected an object at the top level")
    baseline, estimate = raw["baseline"], raw.get("estimate")
    library, library_only = raw.get("library"), raw.get("library_only")
    prebuilt = raw.get("prebuilt")
    return SizeDocument(
        report=SizeReport(
            text=_int(raw["text"]),
            data=_int(raw["data"]),
            bss=_int(raw["bss"]),
            file=_int(raw["file"]),
            registry_slots=_int(raw["registry_slots"]),
            kernels=_int(raw["kernels"]),
            operators=_int(raw["operators"]),
            budget=_optional_int(raw["budget"]),
        ),
        target=_str(raw["target"]),
        registry_bytes=_int(raw["registry_bytes"]),
        budgets=_ints(raw["budgets"]),
        breaches=tuple(
            Breach(_str(b["measure"]), _int(b["actual"]), _int(b["budget"]))
            for b in raw["breaches"]
        ),
        buckets=tuple(_bucket(row) for row in raw["buckets"]),
        kernel_table=tuple(
            OperatorInfo(
                op=_str(row["op"]),
                key=_str(row["key"]),
                library=_str(row["library"]),
                function=_str(row["function"]),
                bucket=_str(row["bucket"]),
                selected_by=_strs(row["selected_by"]),
            )
            for row in raw["kernel_table"]
        ),
        model_savings=_ints(raw["model_savings"]),
        config=dict(raw["config"]),
        baseline=None
        if baseline is None
        else BaselineFigures(
            _str(baseline["target"]),
            _int(baseline["file"]),
            _int(baseline["saved"]),
            None if baseline["ratio"] is None else _number(baseline["ratio"]),
        ),
        segments=tuple(
            Segment(
                bool(s["executable"]), _int(s["offset"]), _int(s["file_size"]), _int(s["alignment"])
            )
            for s in raw["segments"]
        ),
        change=None if raw.get("change") is None else dict(raw["change"]),
        estimate=None if estimate is None else closeness_of(estimate),
        library=None if library is None else LibraryFigures(**_ints(library)),
        library_only=None if library_only is None else LibraryOnly(**_ints(library_only)),
        prebuilt=None if prebuilt is None else PrebuiltFigures.from_dict(prebuilt),
    )


def closeness_of(raw: Mapping[str, Any]) -> Closeness:
    """A Closeness from its JSON form (codegen.size.estimate.closeness's result)."""
    return Closeness(
        _int(raw["estimated"]),
        _int(raw["measured"]),
        _int(raw["error"]),
        _number(raw["error_percent"]),
        _strs(raw["unmeasured"]),
    )


def _bucket(row: Mapping[str, Any]) -> BucketRow:
    return BucketRow(
        name=_str(row["name"]),
        bytes=_int(row["bytes"]),
        code=_int(row["code"]),
        bss=_int(row["bss"]),
        share=_number(row["share"]),
        doc=_str(row["doc"]),
        operators=_strs(row["operators"]),
        selected_by=_strs(row["selected_by"]),
        dtypes=_ints(row["dtypes"]),
        top_symbols=tuple((_str(name), _int(size)) for name, size in row["top_symbols"]),
    )
