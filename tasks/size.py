"""Stage 6: measure each runner and hold it to the target's budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target
from codegen.size import SizeReport, section_sizes
from codegen.units import format_size
from codegen.writer import write_if_changed
from tasks import layout
from tasks.actions import reports_user_errors


@reports_user_errors
def measure(target: str, budget: int | None, runner: Path, resolution: Path) -> bool:
    counts = json.loads(resolution.read_text(encoding="utf-8"))
    text, data, bss = section_sizes(runner)
    report = SizeReport(
        text=text,
        data=data,
        bss=bss,
        file=runner.stat().st_size,
        registry_slots=counts["registry_slots"],
        kernels=len(counts["kernels"]),
        operators=counts["operators"],
        budget=budget,
    )
    write_if_changed(layout.size_json(target), report.to_json())
    write_if_changed(layout.size_md(target), report.to_markdown(target))
    if report.over_budget:
        assert budget is not None
        print(
            f"error: target {target}: runner is {format_size(report.file)}, over its budget of "
            f"{format_size(budget)} by {format_size(report.file - budget)}"
        )
        return False
    return True


def size_task(target: Target) -> dict[str, Any]:
    runner, resolution = layout.runner(target.name), layout.resolution(target.name)
    return {
        "basename": "size",
        "name": target.name,
        "actions": [(measure, [target.name, target.size_budget, runner, resolution])],
        "file_dep": [runner, resolution, Path("codegen/size.py")],
        "task_dep": [f"link:{target.name}"],
        "targets": [layout.size_json(target.name), layout.size_md(target.name)],
        "uptodate": [config_changed({"budget": target.size_budget})],
        "verbosity": 2,
        "clean": True,
    }
