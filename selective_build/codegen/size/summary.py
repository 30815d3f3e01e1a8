"""The few lines a build prints per target, from the size document (not from size.md):
the summary line (with the verification's outcome), then the digest: what it weighs, the
budgets, the largest buckets, what the all-operators baseline weighs, what changed since
the previous build and how close the estimate was."""

from __future__ import annotations

from selective_build.codegen.size.diff import change_lines
from selective_build.codegen.size.document import SizeDocument
from selective_build.codegen.size.view import LIBRARY_HEADLINE, STRIPPED_HEADLINE, report_view
from selective_build.codegen.units import format_size
from selective_build.codegen.verification import Verification

DIGEST_LINES = 7


def size_phrase(document: SizeDocument) -> str:
    """`runner 35.2 KiB (budget 40 KiB)`: the size part of the build's summary line."""
    report = document.report
    budget = "no budget" if report.budget is None else f"budget {format_size(report.budget)}"
    measured = f"runner {format_size(report.file)}"
    if document.is_library_only:
        measured = f"library adds {format_size(report.file)} to an app"
    return f"{measured} ({budget})"


def summary_line(document: SizeDocument, verification: Verification, isa: str | None = None) -> str:
    """`mlp: 4 operators, 5 kernels registered, runner 35.2 KiB (no budget), 1/1 models
    verified`; with `isa` (the toolchain's isa_phrase, for a target whose optimized kernels
    are compiled for it) after the size."""
    report = document.report
    verified = "library only, not run" if document.is_library_only else verification.phrase()
    chosen = f"{isa}, " if isa else ""
    return (
        f"{document.target}: {report.operators} operators, {report.kernels} kernels "
        f"registered, {size_phrase(document)}, {chosen}{verified}"
    )


def digest(document: SizeDocument) -> list[str]:
    """3 to 7 lines, each what size.md says in its section, without the markup."""
    lines = [] if document.change is None else change_lines(document.target, document.change)
    view = report_view(document, lines)
    headline = LIBRARY_HEADLINE if document.is_library_only else STRIPPED_HEADLINE
    result = [
        f"{headline} {view.file}. {view.operators} operators, {view.kernels} kernels,"
        f" registry {view.registry}."
    ]
    result.append(
        "Budgets: "
        + "; ".join(f"{r.measure} {r.actual} of {r.budget}, {r.verdict}" for r in view.budgets)
        if view.budgets
        else "Budget: none."
    )
    largest = [f"{b.name} {b.bytes:,} B ({b.share}%)" for b in document.buckets[:3]]
    if largest:
        result.append("Largest: " + ", ".join(largest))
    baseline = view.baseline
    if baseline is not None:
        result.append(
            f"All-operators baseline (target {baseline.target}): {baseline.file}; this"
            f" runner is {baseline.ratio}× of it, {baseline.saved} smaller."
        )
    if lines:
        result.append("Changed: runner " + (lines[0].partition(": runner ")[2] or lines[0]))
        reasons = [line.strip() for line in lines[1:] if line.strip().startswith("because")]
        if reasons or len(lines) > 1:
            result.append("  " + (reasons or [line.strip() for line in lines[1:]])[0])
    if document.estimate is not None:
        result.append(document.estimate.sentence(document.target))
    return result[:DIGEST_LINES]
