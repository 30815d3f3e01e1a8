"""Holding a runner to its budgets: on `file` (size_budget), other measures and buckets.

A breach prints the measure, the budget, the excess, then the largest contributors and
who brought them in, so the fix (drop a model, an operator, a dtype) is on screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from selective_build.codegen.units import format_size


@dataclass(frozen=True)
class Contributor:
    name: str
    bytes: int
    detail: str  # operators and who selected them, or what the bucket is


@dataclass(frozen=True)
class Breach:
    measure: str
    actual: int
    budget: int


def target_budgets(size_budget: int | None, size_budgets: Mapping[str, int]) -> dict[str, int]:
    """Every budget of a target by measure or bucket: `size_budgets`, and `size_budget` as
    the budget on `file` (the manifest keeps them apart; the report holds them together)."""
    budgets = dict(size_budgets)
    if size_budget is not None:
        budgets["file"] = size_budget
    return budgets


def breaches(actuals: Mapping[str, int], budgets: Mapping[str, int]) -> list[Breach]:
    """The budgets exceeded, `file` first then by name."""
    found = [
        Breach(measure, actuals.get(measure, 0), limit)
        for measure, limit in budgets.items()
        if actuals.get(measure, 0) > limit
    ]
    return sorted(found, key=lambda b: (b.measure != "file", b.measure))


def breach_message(
    target: str, breach: Breach, contributors: Sequence[Contributor], file: str = "runner"
) -> str:
    """The error lines of one breach; the first line's wording is a contract (docs/size-report.md).
    `file` names what the `file` measure is (a library-only target's is the library)."""
    what = file if breach.measure == "file" else breach.measure
    lines = [
        f"error: target {target}: {what} is {format_size(breach.actual)}, over its budget of "
        f"{format_size(breach.budget)} by {format_size(breach.actual - breach.budget)}"
    ]
    if contributors:
        lines.append("  top contributors:")
        width = max(len(c.name) for c in contributors)
        for contributor in contributors:
            lines.append(
                f"    {contributor.name:<{width}}  {contributor.bytes:>9,} B  {contributor.detail}"
            )
    return "\n".join(lines)
