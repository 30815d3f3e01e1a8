"""The short per-target line printed after a build that changed something."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.manifest import Target
from codegen.units import format_size
from tasks import layout


def summary_line(target: str, size_json: Path, verify_json: Path) -> str:
    size = json.loads(size_json.read_text(encoding="utf-8"))
    results = json.loads(verify_json.read_text(encoding="utf-8"))["models"].values()
    verified = sum(result["status"] == "ok" for result in results)
    budget = "no budget" if size["budget"] is None else f"budget {format_size(size['budget'])}"
    return (
        f"{target}: {size['operators']} operators, {size['kernels']} kernels registered, "
        f"runner {format_size(size['file'])} ({budget}), "
        f"{verified}/{len(results)} models verified"
    )


def print_summary(target: str, size_json: Path, verify_json: Path) -> None:
    print(summary_line(target, size_json, verify_json))


def summary_task(target: Target) -> dict[str, Any]:
    size_json, verify_json = layout.size_json(target.name), layout.verify_json(target.name)
    return {
        "basename": "summary",
        "name": target.name,
        "actions": [(print_summary, [target.name, size_json, verify_json])],
        "file_dep": [size_json, verify_json],
        "task_dep": [f"size:{target.name}", f"verify:{target.name}"],
        "verbosity": 2,
    }
