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
not re-run codegen.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from codegen.size_buckets import KERNEL_PREFIX, REGISTRY_SLOT_BYTES
from codegen.stage_file import dump_json, member, parse_json, read_json
from codegen.yaml_io import expect, strings

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

    def to_dict(self) -> dict[str, Any]:
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


def estimate(
    target: str,
    buckets: Mapping[str, bool],
    registry_slots: int,
    config: Mapping[str, Any],
    previous: Mapping[str, Any] | None,
    others: Mapping[str, Mapping[str, Any]],
) -> Estimate:
    """The runner size of `target` once it registers `registry_slots` kernels from the
    kernel sources `buckets` (`kernel:<library>/op_<name>` -> whether the source is
    compiled for every dtype), built with `config` (a size report's `config`:
    `dtype_selective`, `toolchain`); `previous` is the target's last size.json, `others`
    the size.json of other targets by name."""
    selective = bool(config.get("dtype_selective"))
    toolchain = str(config.get("toolchain"))
    unestimated = Estimate(
        target=target,
        file=None,
        previous=None,
        basis=None,
        dtype_selective=selective,
        toolchain=toolchain,
        registry_slots=registry_slots,
        kernels=tuple(KernelCost(bucket, None, ()) for bucket in sorted(buckets)),
    )
    # Only a rebuild is estimated: on a target's first build, which other targets have
    # finished depends on the order doit ran them in, and the reports of a clean build
    # must be the same bytes whatever that order (serial or `-n`).
    if previous is None or not _usable(previous):
        return unestimated
    reports = {
        name: doc
        for name, doc in sorted(others.items())
        if name != target and _usable(doc) and _toolchain(doc) == toolchain
    }
    own = _comparable_buckets(previous, buckets)
    kernels: list[KernelCost] = []
    for bucket in sorted(buckets):
        if bucket in own:
            kernels.append(KernelCost(bucket, own[bucket], (target,)))
            continue
        found = sorted(
            (size, name)
            for name, doc in reports.items()
            if (size := _comparable_buckets(doc, {bucket: buckets[bucket]}).get(bucket)) is not None
        )
        if found:
            size, _ = found[(len(found) - 1) // 2]  # the lower median
            kernels.append(KernelCost(bucket, size, tuple(sorted(n for _, n in found))))
        else:
            kernels.append(KernelCost(bucket, None, ()))

    code = sum(k.bytes or 0 for k in kernels) - sum(_kernel_buckets(previous).values())
    file = _file_with_more_code(previous, code) + REGISTRY_SLOT_BYTES * (
        registry_slots - int(previous.get("registry_slots", 0))
    )
    return dataclasses.replace(
        unestimated, file=file, previous=int(previous["file"]), basis=target, kernels=tuple(kernels)
    )


def _file_with_more_code(basis: Mapping[str, Any], code: int) -> int:
    """The basis's file size with `code` more bytes (or fewer, when negative) in its
    executable segment: in whole pages when its segments are known, else byte for byte."""
    executable = [s for s in basis.get("segments") or () if s.get("executable")]
    if len(executable) != 1:
        return int(basis["file"]) + code
    segment = executable[0]
    page = int(segment["alignment"]) or 1
    end = int(segment["offset"]) + int(segment["file_size"])
    pages = -(-(end + code) // page) - -(-end // page)  # ceiling divisions
    return int(basis["file"]) + pages * page


def closeness(estimate: Mapping[str, Any], measured: int) -> dict[str, Any] | None:
    """How the estimate (a size_estimate.json document) compares with the measured
    runner; None when there was no estimate."""
    estimated = estimate.get("estimate")
    if not isinstance(estimated, int) or measured <= 0:
        return None
    return {
        "estimated": estimated,
        "measured": measured,
        "error": estimated - measured,
        "error_percent": round(100 * (estimated - measured) / measured, 1),
        "unmeasured": list(estimate.get("unmeasured", [])),
    }


def closeness_line(target: str, compared: Mapping[str, Any]) -> str:
    """`size: target mlp: estimated 34.1 KiB, measured 35.2 KiB (-3%)`."""
    percent = round(compared["error_percent"])
    line = (
        f"size: target {target}: estimated {kib(compared['estimated'])}, "
        f"measured {kib(compared['measured'])} ({percent:+d}%)"
    )
    count = len(compared["unmeasured"])
    if count:
        line += f"; {count} kernel{'s' if count != 1 else ''} had not been measured"
    return line


def closeness_markdown(target: str, compared: Mapping[str, Any] | None) -> str:
    """The section size.md ends with ('' when there was no estimate)."""
    if compared is None:
        return ""
    text = closeness_line(target, compared).removeprefix(f"size: target {target}: ")
    return (
        "\n## Estimate before compiling\n\n"
        + text[0].upper()
        + text[1:]
        + " (codegen's estimate from earlier size reports, `size_estimate.json`).\n"
    )


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


def read_report(path: Path) -> dict[str, Any] | None:
    """A size.json document, or None when it is missing or unreadable (never an error:
    reports only advise the estimate)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) and _usable(document) else None


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KiB"


def _usable(document: Mapping[str, Any]) -> bool:
    return isinstance(document.get("file"), int) and isinstance(document.get("buckets"), list)


def _toolchain(document: Mapping[str, Any]) -> str:
    return str((document.get("config") or {}).get("toolchain"))


def _comparable_buckets(document: Mapping[str, Any], wanted: Mapping[str, bool]) -> dict[str, int]:
    """The kernel buckets of `document` among `wanted` that were compiled for the same
    dtypes as wanted: every dtype, or only those selected (a dtype-selective target
    compiles an operator selected by name, e.g. in `extra_ops`, for every dtype)."""
    settings = document.get("config") or {}
    whole = not settings.get("dtype_selective") or settings.get("include_all_operators")
    by_name = set(settings.get("extra_ops") or ())
    found: dict[str, int] = {}
    for row in document.get("buckets", []):
        name = str(row.get("name", ""))
        if name not in wanted:
            continue
        every = bool(whole) or bool(by_name & set(row.get("operators") or ()))
        if every == wanted[name]:
            found[name] = int(row["bytes"])
    return found


def _kernel_buckets(document: Mapping[str, Any]) -> dict[str, int]:
    return {
        str(b["name"]): int(b["bytes"])
        for b in document.get("buckets", [])
        if str(b.get("name", "")).startswith(KERNEL_PREFIX)
    }
