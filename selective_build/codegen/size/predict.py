"""Making codegen's size estimate (Note [Size estimate], codegen/size/estimate.py): from
the resolved kernels and the size reports of earlier builds to the `Estimate`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from selective_build.codegen.resolution import Resolution
from selective_build.codegen.size.document import SizeDocument, read_earlier
from selective_build.codegen.size.estimate import Estimate, KernelCost
from selective_build.codegen.size.settings import TargetSettings
from selective_build.codegen.size_buckets import KERNEL_PREFIX, REGISTRY_SLOT_BYTES, kernel_bucket


def estimate_target(
    target: str, resolution: Resolution, settings: TargetSettings, reports: Mapping[str, Path]
) -> Estimate:
    """The estimate of `target`, resolved to `resolution` and built with `settings`, from
    the size reports at `reports` (every target's size.json by name, this one's included).
    They are read here, and are no dependency: a missing or unreadable one is none."""
    previous = read_earlier(reports[target]) if target in reports else None
    # Other targets' reports matter only for a rebuild.
    others = {
        name: report
        for name, path in reports.items()
        if previous is not None and name != target and (report := read_earlier(path)) is not None
    }
    buckets = every_dtype_buckets(resolution, settings.dtype_selective)
    return estimate(target, buckets, resolution.registry_slots, settings, previous, others)


def every_dtype_buckets(resolution: Resolution, dtype_selective: bool) -> dict[str, bool]:
    """Per kernel bucket, whether the runner compiles its kernels for every dtype: when the
    target is not dtype-selective, or when one of its kernels' operators is selected with
    no dtype list (its header selects them all)."""
    every_dtype: dict[str, bool] = {}
    for kernel in resolution.kernels:
        bucket = kernel_bucket(kernel.library, kernel.source)
        every = not dtype_selective or resolution.op_dtypes.get(kernel.op) is None
        every_dtype[bucket] = every_dtype.get(bucket, False) or every
    return every_dtype


def estimate(
    target: str,
    buckets: Mapping[str, bool],
    registry_slots: int,
    settings: TargetSettings,
    previous: SizeDocument | None,
    others: Mapping[str, SizeDocument],
) -> Estimate:
    """The runner size of `target` once it registers `registry_slots` kernels from the
    kernel sources `buckets` (`kernel:<library>/op_<name>` -> whether the source is
    compiled for every dtype), built with `settings`; `previous` is the target's last
    report, `others` the reports of other targets by name."""
    unestimated = Estimate(
        target=target,
        file=None,
        previous=None,
        basis=None,
        dtype_selective=settings.dtype_selective,
        toolchain=settings.toolchain,
        registry_slots=registry_slots,
        kernels=tuple(KernelCost(bucket, None, ()) for bucket in sorted(buckets)),
    )
    # Only a rebuild is estimated: on a target's first build, which other targets have
    # finished depends on the order doit ran them in, and the reports of a clean build
    # must be the same bytes whatever that order (serial or `-n`).
    if previous is None:
        return unestimated
    reports = {
        name: report
        for name, report in sorted(others.items())
        if name != target and report.config.toolchain == settings.toolchain
    }
    own = _comparable_buckets(previous, buckets)
    kernels: list[KernelCost] = []
    for bucket in sorted(buckets):
        if bucket in own:
            kernels.append(KernelCost(bucket, own[bucket], (target,)))
            continue
        found = sorted(
            (size, name)
            for name, report in reports.items()
            if (size := _comparable_buckets(report, {bucket: buckets[bucket]}).get(bucket))
            is not None
        )
        if found:
            size, _ = found[(len(found) - 1) // 2]  # the lower median
            kernels.append(KernelCost(bucket, size, tuple(sorted(n for _, n in found))))
        else:
            kernels.append(KernelCost(bucket, None, ()))

    code = sum(k.bytes or 0 for k in kernels) - sum(
        b.bytes for b in previous.buckets if b.name.startswith(KERNEL_PREFIX)
    )
    file = _file_with_more_code(previous, code) + REGISTRY_SLOT_BYTES * (
        registry_slots - previous.report.registry_slots
    )
    return dataclasses.replace(
        unestimated,
        file=file,
        previous=previous.report.file,
        basis=target,
        kernels=tuple(kernels),
    )


def _file_with_more_code(basis: SizeDocument, code: int) -> int:
    """The basis's file size with `code` more bytes (or fewer, when negative) in its
    executable segment: in whole pages when its segments are known, else byte for byte."""
    executable = [s for s in basis.segments if s.executable]
    if len(executable) != 1:
        return basis.report.file + code
    segment = executable[0]
    page = segment.alignment or 1
    end = segment.offset + segment.file_size
    pages = -(-(end + code) // page) - -(-end // page)  # ceiling divisions
    return basis.report.file + pages * page


def _comparable_buckets(report: SizeDocument, wanted: Mapping[str, bool]) -> dict[str, int]:
    """The kernel buckets of `report` among `wanted` that were compiled for the same
    dtypes as wanted: every dtype, or only those selected (a dtype-selective target
    compiles an operator selected by name, e.g. in `extra_ops`, for every dtype)."""
    settings = report.config
    whole = not settings.dtype_selective or settings.include_all_operators
    by_name = set(settings.extra_ops)
    return {
        row.name: row.bytes
        for row in report.buckets
        if row.name in wanted and (whole or bool(by_name & set(row.operators))) == wanted[row.name]
    }
