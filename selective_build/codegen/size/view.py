"""What size.md, size.html and the build's digest show of a size document: every number
formatted, every row in order. The templates (codegen/templates/size*.j2) only place it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from selective_build.codegen.size.document import SizeDocument
from selective_build.codegen.size_buckets import KERNEL_PREFIX, SHARED_KERNELS, TOTALS
from selective_build.codegen.units import format_size

# size.md's headline, and what it says instead for a library-only target.
STRIPPED_HEADLINE = "Stripped runner:"
LIBRARY_HEADLINE = "Added to a minimal app (stripped):"


@dataclass(frozen=True)
class BudgetView:
    measure: str
    budget: str
    actual: str
    verdict: str  # "ok" or "OVER"


@dataclass(frozen=True)
class BucketView:
    name: str
    bytes: int
    share: float
    detail: str  # its operators and who selected them, or what the bucket is
    dtype_text: str  # its bytes per dtype instantiation, or ""


@dataclass(frozen=True)
class BaselineView:
    target: str
    file: str
    saved: str
    ratio: str


@dataclass(frozen=True)
class SavingView:
    model: str
    saved: str


@dataclass(frozen=True)
class ReportView:
    target: str
    file: str
    text: str
    data: str
    bss: str
    file_bytes: str
    registry: str
    operators: int
    kernels: int
    budgets: tuple[BudgetView, ...]
    buckets: tuple[BucketView, ...]
    total: str
    savings: tuple[SavingView, ...]
    baseline: BaselineView | None
    change: tuple[str, ...]

    def context(self) -> dict[str, object]:
        """The view as a template's context: its fields by name."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def report_view(document: SizeDocument, change_lines: Sequence[str]) -> ReportView:
    report, baseline = document.report, document.baseline
    return ReportView(
        target=document.target,
        file=format_size(report.file),
        text=f"{report.text:,}",
        data=f"{report.data:,}",
        bss=f"{report.bss:,}",
        file_bytes=f"{report.file:,}",
        registry=f"{report.registry_slots} slots, {document.registry_bytes:,} B",
        operators=report.operators,
        kernels=report.kernels,
        budgets=tuple(
            BudgetView(
                measure=measure,
                budget=format_size(limit),
                actual=format_size(actual(document, measure)),
                verdict="OVER" if actual(document, measure) > limit else "ok",
            )
            for measure, limit in sorted(document.budgets.items())
        ),
        buckets=tuple(
            BucketView(
                name=bucket.name,
                bytes=bucket.bytes,
                share=bucket.share,
                detail=", ".join(bucket.operators)
                + (f" (selected by {', '.join(bucket.selected_by)})" if bucket.selected_by else "")
                if bucket.operators
                else bucket.doc,
                dtype_text=", ".join(f"{d} {n:,} B" for d, n in bucket.dtypes.items()),
            )
            for bucket in document.buckets
        ),
        total=f"{sum(b.bytes for b in document.buckets):,}",
        savings=tuple(
            SavingView(model, format_size(saved))
            for model, saved in sorted(document.model_savings.items())
        ),
        baseline=None
        if baseline is None
        else BaselineView(
            target=baseline.target,
            file=format_size(baseline.file),
            saved=format_size(max(baseline.saved, 0)),
            ratio="-" if baseline.ratio is None else f"{baseline.ratio:.2f}",
        ),
        change=tuple(change_lines),
    )


def actual(document: SizeDocument, measure: str) -> int:
    """The bytes a budget on `measure` holds: a total, all kernels, or one bucket."""
    if measure in TOTALS:
        return document.report.totals()[measure]
    if measure == "kernels":
        return sum(
            b.bytes
            for b in document.buckets
            if b.name.startswith(KERNEL_PREFIX) or b.name == SHARED_KERNELS
        )
    return next((b.bytes for b in document.buckets if b.name == measure), 0)
