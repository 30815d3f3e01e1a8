"""Predicting a target's runner size before compiling it, from earlier size reports.

Note [Size estimate]
When codegen resolves a target, the kernel sources it will compile are known but nothing
is compiled yet. The estimate starts from a measured runner (the basis: this target's
previous `size.json`; a target's first build is not estimated, as which other targets
have finished then depends on build order), takes away the basis's kernel
buckets and adds, per kernel source the target now needs, that source's bucket as measured
before: in the basis when the basis has the same dtype-selectivity, else the median of the
same source's bucket in every other target's report with the same toolchain and
dtype-selectivity. Each registry slot gained or lost counts 32 bytes. A kernel source no
report has measured adds nothing and is listed as not measured. Everything else
(runtime, `kernels:shared`, padding) is taken from the basis unchanged, so the estimate
misses helpers new kernels share; the size stage reports how far off it was.

The file does not grow byte for byte: the linker lays out the code segment in whole
pages, so a few hundred bytes of kernel code cost nothing or a whole 4 KiB page. When the
basis recorded its segments (size.json `segments`), the kernels' bytes (code, nearly all
of it) move the end of its executable segment, and the file grows by the pages that end
crosses; registry slots (data) still count 32 bytes each.

Reports are read, never depended on: they are advisory, and a report that changes must
not re-run codegen. This module is the estimate's value (size_estimate.json) and how the
size stage compares it with the measured runner; codegen.size.predict makes it.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.fields import JsonValue, integer, mapping, number, texts
from selective_build.codegen.stage_file import dump_json, member, parse_json, read_json
from selective_build.codegen.yaml_io import expect, strings

T = TypeVar("T")
WHAT = "a size estimate"


@dataclass(frozen=True)
class KernelCost:
    """One kernel source the target needs: its bytes as measured before, and where."""

    bucket: str
    bytes: int | None  # None: never measured with this toolchain and dtype-selectivity
    measured_in: tuple[str, ...]  # the targets whose reports gave the figure


@dataclass(frozen=True)
class Estimate:
    target: str
    file: int | None  # predicted bytes of the stripped runner; None: no report to start from
    previous: int | None  # the target's runner as last measured
    basis: str | None  # the target whose report the runtime's bytes come from
    dtype_selective: bool
    toolchain: str
    registry_slots: int
    kernels: tuple[KernelCost, ...]

    @property
    def unmeasured(self) -> tuple[str, ...]:
        return tuple(k.bucket for k in self.kernels if k.bytes is None)

    def to_dict(self) -> dict[str, JsonValue]:
        """size_estimate.json's JSON form."""
        return {
            "target": self.target,
            "estimate": self.file,
            "previous": self.previous,
            "basis": self.basis,
            "dtype_selective": self.dtype_selective,
            "toolchain": self.toolchain,
            "registry_slots": self.registry_slots,
            "kernels": [
                {"bucket": k.bucket, "bytes": k.bytes, "measured_in": list(k.measured_in)}
                for k in self.kernels
            ],
            "unmeasured": list(self.unmeasured),
        }

    def to_json(self) -> str:
        return dump_json(self.to_dict())

    @staticmethod
    def from_json(text: str, source: str | Path) -> Estimate:
        return parse_json(text, source, WHAT, _estimate)

    @staticmethod
    def read(path: Path) -> Estimate:
        return read_json(path, WHAT, _estimate)

    def line(self) -> str:
        """The line codegen prints."""
        if self.file is None:
            return f"estimate: target {self.target}: no earlier size report to estimate from"
        was = "first build" if self.previous is None else f"was {kib(self.previous)}"
        line = f"estimate: target {self.target} ≈ {kib(self.file)} after this change ({was})"
        count = len(self.unmeasured)
        if count:
            line += f"; {count} kernel{'s' if count != 1 else ''} not measured before"
        return line

    def closeness(self, measured: int) -> Closeness | None:
        """How the estimate compares with the measured runner; None when there was none."""
        if self.file is None or measured <= 0:
            return None
        return Closeness(
            estimated=self.file,
            measured=measured,
            error=self.file - measured,
            error_percent=round(100 * (self.file - measured) / measured, 1),
            unmeasured=self.unmeasured,
        )


@dataclass(frozen=True)
class Closeness:
    """How codegen's estimate compared with the measured file (size.json `estimate`)."""

    estimated: int
    measured: int
    error: int
    error_percent: float
    unmeasured: tuple[str, ...]

    @staticmethod
    def from_dict(raw: object) -> Closeness:
        """Its JSON form read back (TypeError or KeyError when it is not one)."""
        fields = mapping(raw)
        return Closeness(
            integer(fields["estimated"]),
            integer(fields["measured"]),
            integer(fields["error"]),
            number(fields["error_percent"]),
            texts(fields["unmeasured"]),
        )

    def line(self, target: str) -> str:
        """`size: target mlp: estimated 34.1 KiB, measured 35.2 KiB (-3%)`."""
        line = (
            f"size: target {target}: estimated {kib(self.estimated)}, "
            f"measured {kib(self.measured)} ({round(self.error_percent):+d}%)"
        )
        count = len(self.unmeasured)
        if count:
            line += f"; {count} kernel{'s' if count != 1 else ''} had not been measured"
        return line

    def sentence(self, target: str) -> str:
        """The line without its target, as a sentence: `Estimated 34.1 KiB, ...`."""
        text = self.line(target).removeprefix(f"size: target {target}: ")
        return text[0].upper() + text[1:]

    def markdown(self, target: str) -> str:
        """The section size.md ends with."""
        return (
            "\n## Estimate before compiling\n\n"
            + self.sentence(target)
            + " (codegen's estimate from earlier size reports, `size_estimate.json`).\n"
        )


def compare_estimate(path: Path, measured: int, buckets: Set[str], slots: int) -> Closeness | None:
    """How codegen's estimate at `path` compares with the measured runner, when it was made
    for the kernels measured (`buckets`, `slots`); None when there is none (it advises,
    so a missing or unreadable one is no error)."""
    try:
        estimate = Estimate.read(path)
    except InputError:
        return None
    if {k.bucket for k in estimate.kernels} != buckets or estimate.registry_slots != slots:
        return None
    return estimate.closeness(measured)


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KiB"


def _estimate(document: object) -> Estimate:
    top = expect(document, dict, "top level")
    kernels = []
    for index, item in enumerate(expect(member(top, "kernels", "top level"), list, "kernels")):
        where = f"kernels[{index}]"
        row = expect(item, dict, where)
        kernels.append(
            KernelCost(
                bucket=expect(member(row, "bucket", where), str, f"{where}.bucket"),
                bytes=_optional(member(row, "bytes", where), int, f"{where}.bytes"),
                measured_in=tuple(
                    strings(member(row, "measured_in", where), f"{where}.measured_in")
                ),
            )
        )
    return Estimate(
        target=expect(member(top, "target", "top level"), str, "target"),
        file=_optional(member(top, "estimate", "top level"), int, "estimate"),
        previous=_optional(member(top, "previous", "top level"), int, "previous"),
        basis=_optional(member(top, "basis", "top level"), str, "basis"),
        dtype_selective=expect(
            member(top, "dtype_selective", "top level"), bool, "dtype_selective"
        ),
        toolchain=expect(member(top, "toolchain", "top level"), str, "toolchain"),
        registry_slots=expect(member(top, "registry_slots", "top level"), int, "registry_slots"),
        kernels=tuple(kernels),
    )


def _optional(value: object, kind: type[T], key: str) -> T | None:
    return None if value is None else expect(value, kind, key)
