"""The short per-target lines printed after a build that changed something: the summary
line, then the size digest, both from size.json's document (codegen/size/summary.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.manifest import Target
from tasks import layout
from tasks.code_deps import code_closure
from tasks.verify import NOT_VERIFIED


def summary_line(target: str, size_json: Path, verify_json: Path) -> str:
    from codegen.size.document import SizeDocument
    from codegen.size.summary import size_phrase

    size = SizeDocument.read(size_json)
    results = json.loads(verify_json.read_text(encoding="utf-8"))["models"].values()
    verified = sum(result["status"] == "ok" for result in results)
    verification = f"{verified}/{len(results)} models verified" if results else "no models"
    if any(result["status"] == NOT_VERIFIED for result in results):
        verification = NOT_VERIFIED
    if size.is_library_only:
        verification = "library only, not run"
    return (
        f"{target}: {size.report.operators} operators, {size.report.kernels} kernels "
        f"registered, {size_phrase(size)}, {verification}"
    )


def print_summary(target: str, size_json: Path, verify_json: Path) -> None:
    # Imported here: loading doit's tasks does not import the size stage's modules.
    from codegen.size.document import SizeDocument
    from codegen.size.summary import digest

    print(summary_line(target, size_json, verify_json))
    for line in digest(SizeDocument.read(size_json)):
        print(f"  {line}")


def summary_task(target: Target) -> dict[str, Any]:
    size_json, verify_json = layout.size_json(target.name), layout.verify_json(target.name)
    return {
        "basename": "summary",
        "name": target.name,
        "actions": [(print_summary, [target.name, size_json, verify_json])],
        "file_dep": [
            size_json,
            verify_json,
            *code_closure(__name__),
        ],
        "task_dep": [f"size:{target.name}", f"verify:{target.name}"],
    }
