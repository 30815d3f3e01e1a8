"""The short per-target lines printed after a build that changed something: the summary
line, then the size digest, both from size.json's document (codegen/size/summary.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tasks import layout
from tasks.code_deps import action_code
from tasks.engine.actions import reports_user_errors
from tasks.target import TargetPlan


@reports_user_errors
def print_summary(size_json: Path, verify_json: Path) -> None:
    # Imported here: loading doit's tasks does not import the size stage's modules.
    from codegen.size.document import SizeDocument
    from codegen.size.summary import digest, summary_line
    from codegen.verification import Verification

    size = SizeDocument.read(size_json)
    print(summary_line(size, Verification.read(verify_json)))
    for line in digest(size):
        print(f"  {line}")


def summary_task(plan: TargetPlan) -> dict[str, Any]:
    paths, name = layout.paths(), plan.target.name
    size_json, verify_json = paths.size_json(name), paths.verify_json(name)
    return {
        "basename": "summary",
        "name": name,
        "actions": [(print_summary, [size_json, verify_json])],
        "file_dep": [
            size_json,
            verify_json,
            *action_code(print_summary),
        ],
        "task_dep": [f"size:{name}", f"verify:{name}"],
    }
