"""size.json as a typed value: the size document and its one codec.

`to_json` writes the document as the size stage always has (sorted keys, two-space
indent), so a report written before this module existed reads back, and one read back
writes the same bytes. `from_json` is how anything but the size stage reads a report;
`read_earlier` is how the next build's diff and estimate read it (advice: none when it
is missing or damaged).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.budget import Breach
from selective_build.codegen.size.change import SizeChange
from selective_build.codegen.size.elf import Segment
from selective_build.codegen.size.estimate import Closeness
from selective_build.codegen.size.fields import (
    JsonValue,
    boolean,
    integer,
    integers,
    items,
    json_value,
    mapping,
    number,
    optional_integer,
    text,
    texts,
)
from selective_build.codegen.size.prebuilt import NonSelective
from selective_build.codegen.size.settings import TargetSettings
from selective_build.codegen.size.totals import LibraryFigures, SizeReport


@dataclass(frozen=True)
class OperatorInfo:
    """One registered kernel: who provides it, where its bytes are, who selected it."""

    op: str
    key: str
    library: str
    function: str
    bucket: str
    selected_by: tuple[str, ...]  # models (by manifest name) and manifest entries


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
class LibraryOnly:
    """A library-only target's two minimal apps (Note [Library-only size])."""

    with_library: int
    without_library: int


@dataclass(frozen=True)
class PrebuiltPart:
    """A library the runner loads that no selection trims (the target runtime's
    `prebuilt()`, Note [Target runtime]): outside the runner file and its buckets."""

    name: str  # its file name
    file: int  # bytes


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
    config: TargetSettings  # for diffs and the estimate
    baseline: BaselineFigures | None
    segments: tuple[Segment, ...]
    change: SizeChange | None = None  # since the previous build (codegen.size.diff)
    estimate: Closeness | None = None
    library: LibraryFigures | None = None
    library_only: LibraryOnly | None = None  # only for a library-only target
    prebuilt: tuple[PrebuiltPart, ...] = ()  # in the JSON only when there are some
    # The all-operators library an app would link instead (codegen/size/prebuilt.py).
    non_selective: NonSelective | None = None

    @property
    def is_library_only(self) -> bool:
        return self.library_only is not None

    def to_dict(self) -> dict[str, JsonValue]:
        """The JSON form: the contract's fields at the top level, then the analysis."""
        document: dict[str, object] = asdict(self.report)
        document.update(
            {
                "target": self.target,
                "registry_bytes": self.registry_bytes,
                "budgets": dict(sorted(self.budgets.items())),
                "breaches": [asdict(b) for b in self.breaches],
                "buckets": [asdict(b) for b in self.buckets],
                "kernel_table": [asdict(o) for o in self.kernel_table],
                "model_savings": self.model_savings,
                "config": self.config.to_dict(),
                "baseline": None if self.baseline is None else asdict(self.baseline),
                "change": None if self.change is None else self.change.to_dict(),
                "segments": [asdict(s) for s in self.segments],
                "estimate": None if self.estimate is None else asdict(self.estimate),
                "library": None if self.library is None else asdict(self.library),
            }
        )
        if self.library_only is not None:
            document["library_only"] = asdict(self.library_only)
        if self.prebuilt:
            document["prebuilt"] = [asdict(part) for part in self.prebuilt]
        if self.non_selective is not None:
            document["non_selective"] = asdict(self.non_selective)
        return {key: json_value(value) for key, value in document.items()}

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
        except TypeError as error:
            raise InputError(source, f"not a size report: {error}") from None

    @staticmethod
    def read(path: Path) -> SizeDocument:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise InputError(path, f"cannot read: {error.strerror}") from None
        except UnicodeDecodeError:
            raise InputError(path, "not a size report: not UTF-8 text") from None
        return SizeDocument.from_json(text, path)

    def with_extras(
        self,
        change: SizeChange | None,
        estimate: Closeness | None,
        library: LibraryFigures,
        library_only: LibraryOnly | None,
        prebuilt: tuple[PrebuiltPart, ...],
    ) -> SizeDocument:
        return replace(
            self,
            change=change,
            estimate=estimate,
            library=library,
            library_only=library_only,
            prebuilt=prebuilt,
        )


def read_earlier(path: Path) -> SizeDocument | None:
    """The report an earlier build left at `path`, or None when there is none or it cannot
    be read: it only advises (the diff since then, codegen's estimate)."""
    try:
        return SizeDocument.read(path)
    except InputError:
        return None


def _document(raw: object) -> SizeDocument:
    fields = mapping(raw)
    baseline, change, estimate = fields["baseline"], fields.get("change"), fields.get("estimate")
    library, library_only = fields.get("library"), fields.get("library_only")
    return SizeDocument(
        report=SizeReport(
            text=integer(fields["text"]),
            data=integer(fields["data"]),
            bss=integer(fields["bss"]),
            file=integer(fields["file"]),
            registry_slots=integer(fields["registry_slots"]),
            kernels=integer(fields["kernels"]),
            operators=integer(fields["operators"]),
            budget=optional_integer(fields["budget"]),
        ),
        target=text(fields["target"]),
        registry_bytes=integer(fields["registry_bytes"]),
        budgets=integers(fields["budgets"]),
        breaches=tuple(_breach(mapping(row)) for row in items(fields["breaches"])),
        buckets=tuple(_bucket(mapping(row)) for row in items(fields["buckets"])),
        kernel_table=tuple(_operator(mapping(row)) for row in items(fields["kernel_table"])),
        model_savings=integers(fields["model_savings"]),
        config=TargetSettings.from_dict(fields["config"]),
        baseline=None if baseline is None else _baseline(mapping(baseline)),
        segments=tuple(_segment(mapping(row)) for row in items(fields["segments"])),
        change=None if change is None else SizeChange.from_dict(change),
        estimate=None if estimate is None else Closeness.from_dict(estimate),
        library=None if library is None else LibraryFigures(**integers(library)),
        library_only=None if library_only is None else LibraryOnly(**integers(library_only)),
        prebuilt=tuple(_prebuilt(mapping(row)) for row in items(fields.get("prebuilt", []))),
        non_selective=None
        if fields.get("non_selective") is None
        else NonSelective.from_dict(mapping(fields["non_selective"])),
    )


def _breach(row: Mapping[str, object]) -> Breach:
    return Breach(text(row["measure"]), integer(row["actual"]), integer(row["budget"]))


def _bucket(row: Mapping[str, object]) -> BucketRow:
    return BucketRow(
        name=text(row["name"]),
        bytes=integer(row["bytes"]),
        code=integer(row["code"]),
        bss=integer(row["bss"]),
        share=number(row["share"]),
        doc=text(row["doc"]),
        operators=texts(row["operators"]),
        selected_by=texts(row["selected_by"]),
        dtypes=integers(row["dtypes"]),
        top_symbols=tuple(_symbol(pair) for pair in items(row["top_symbols"])),
    )


def _symbol(raw: object) -> tuple[str, int]:
    name, size = items(raw)
    return text(name), integer(size)


def _operator(row: Mapping[str, object]) -> OperatorInfo:
    return OperatorInfo(
        op=text(row["op"]),
        key=text(row["key"]),
        library=text(row["library"]),
        function=text(row["function"]),
        bucket=text(row["bucket"]),
        selected_by=texts(row["selected_by"]),
    )


def _baseline(row: Mapping[str, object]) -> BaselineFigures:
    ratio = row["ratio"]
    return BaselineFigures(
        text(row["target"]),
        integer(row["file"]),
        integer(row["saved"]),
        None if ratio is None else number(ratio),
    )


def _segment(row: Mapping[str, object]) -> Segment:
    return Segment(
        boolean(row["executable"]),
        integer(row["offset"]),
        integer(row["file_size"]),
        integer(row["alignment"]),
    )


def _prebuilt(row: Mapping[str, object]) -> PrebuiltPart:
    return PrebuiltPart(text(row["name"]), integer(row["file"]))
