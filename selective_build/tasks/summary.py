"""The short per-target lines printed after a build that changed something: the summary
line, then the size digest, both from size.json's document (codegen/size/summary.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from selective_build.codegen.manifest import OPTIMIZED
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import reports_user_errors
from selective_build.tasks.target import TargetPlan


@reports_user_errors
def print_summary(size_json: Path, verify_json: Path, isa: str | None = None) -> None:
    # Imported here: loading doit's tasks does not import the size stage's modules.
    from selective_build.codegen.size.document import SizeDocument
    from selective_build.codegen.size.summary import digest, summary_line
    from selective_build.codegen.verification import Verification

    size = SizeDocument.read(size_json)
    print(summary_line(size, Verification.read(verify_json), isa))
    for line in digest(size):
        print(f"  {line}")


def summary_task(plan: TargetPlan) -> dict[str, Any]:
    paths, target = layout.paths(), plan.target
    name, toolchain = target.name, plan.runtime.context.toolchain
    size_json, verify_json = paths.size_json(name), paths.verify_json(name)
    # Note [Instruction sets] (codegen/isa.py): say which one a target's optimized kernels
    # were compiled for, above all when the build machine chose it.
    isa = toolchain.isa_phrase() if toolchain.isa and OPTIMIZED in target.libraries else None
    return {
        "basename": "summary",
        "name": name,
        "actions": [(print_summary, [size_json, verify_json, isa])],
        "file_dep": [
            size_json,
            verify_json,
            *action_code(print_summary),
        ],
        "task_dep": [f"size:{name}", f"verify:{name}"],
    }
