"""The short per-target line printed after a build that changed something."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.manifest import Target
from codegen.units import format_size
from tasks import layout
from tasks.code_deps import code_closure
from tasks.size import LIBRARY_HEADLINE, STRIPPED_HEADLINE
from tasks.verify import NOT_VERIFIED


def summary_line(target: str, size_json: Path, verify_json: Path) -> str:
    size = json.loads(size_json.read_text(encoding="utf-8"))
    results = json.loads(verify_json.read_text(encoding="utf-8"))["models"].values()
    verified = sum(result["status"] == "ok" for result in results)
    budget = "no budget" if size["budget"] is None else f"budget {format_size(size['budget'])}"
    verification = f"{verified}/{len(results)} models verified" if results else "no models"
    if any(result["status"] == NOT_VERIFIED for result in results):
        verification = NOT_VERIFIED
    measured = f"runner {format_size(size['file'])}"
    if size.get("library_only"):
        verification = "library only, not run"
        measured = f"library adds {format_size(size['file'])} to an app"
    return (
        f"{target}: {size['operators']} operators, {size['kernels']} kernels registered, "
        f"{measured} ({budget}), {verification}"
    )


def size_digest(markdown: str) -> list[str]:
    """3 to 7 lines of size.md: the headline, the budgets, the largest buckets, what the
    all-operators baseline weighs, what changed since the previous build and how close
    codegen's estimate was."""
    sections: dict[str, list[str]] = {"": []}
    current = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        elif line.strip() and not line.startswith("# "):
            sections[current].append(line.strip())
    digest = [
        line.replace("**", "")
        for line in sections[""]
        if line.startswith((STRIPPED_HEADLINE, LIBRARY_HEADLINE))
    ]
    budgets = [_cells(row) for row in sections.get("Budgets", []) if _is_row(row)]
    digest.append(
        "Budgets: " + "; ".join(f"{c[0]} {c[2]} of {c[1]}, {c[3]}" for c in budgets if len(c) >= 4)
        if budgets
        else "Budget: none."
    )
    buckets = [_cells(row) for row in sections.get("Where the bytes are", []) if _is_row(row)]
    largest = [f"{c[0]} {c[1]} B ({c[2]})" for c in buckets if len(c) >= 3 and "**" not in c[0]]
    if largest:
        digest.append("Largest: " + ", ".join(largest[:3]))
    digest.extend(line.replace("`", "") for line in sections.get("Selective build saved", [])[:1])
    change = [line for line in sections.get("Change since the previous build", []) if line != "```"]
    if change:
        digest.append("Changed: runner " + (change[0].partition(": runner ")[2] or change[0]))
        reasons = [line for line in change[1:] if line.startswith("because")]
        if reasons or len(change) > 1:
            digest.append("  " + (reasons or change[1:])[0])
    digest.extend(
        line.partition(" (codegen's")[0]
        for line in sections.get("Estimate before compiling", [])[:1]
    )
    return digest[:7]


def _is_row(line: str) -> bool:
    return line.startswith("|") and not line.startswith("|---") and not line.startswith("| measure")


def _cells(row: str) -> list[str]:
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return [] if cells[:1] == ["bucket"] else cells


def print_summary(target: str, size_json: Path, verify_json: Path) -> None:
    print(summary_line(target, size_json, verify_json))
    try:
        markdown = layout.size_md(target).read_text(encoding="utf-8")
    except OSError:
        return
    for line in size_digest(markdown):
        print(f"  {line}")


def summary_task(target: Target) -> dict[str, Any]:
    size_json, verify_json = layout.size_json(target.name), layout.verify_json(target.name)
    return {
        "basename": "summary",
        "name": target.name,
        "actions": [(print_summary, [target.name, size_json, verify_json])],
        "file_dep": [
            size_json,
            layout.size_md(target.name),
            verify_json,
            *code_closure(__name__),
        ],
        "task_dep": [f"size:{target.name}", f"verify:{target.name}"],
    }
