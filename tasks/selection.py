"""Stage 2: each target's selected_operators.yaml, the union of its sources."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Target
from codegen.selection import Selection, read_selection
from codegen.writer import write_if_changed
from tasks import layout
from tasks.actions import reports_user_errors
from tasks.config import manifest


@reports_user_errors
def write_selection(target: Target, source: str, model_ops: list[Path], output: Path) -> None:
    selection = Selection(include_all_operators=target.include_all_operators)
    selection = selection | Selection.from_operators(target.extra_ops, source)
    for path in model_ops:
        selection = selection | read_selection(path)
    write_if_changed(output, selection.to_yaml())
    provenance = json.dumps(selection.provenance(), indent=2, sort_keys=True) + "\n"
    write_if_changed(layout.provenance(target.name), provenance)


def task_selection() -> Iterator[dict[str, Any]]:
    """Merge each target's models and extra operators into selected_operators.yaml."""
    for target in manifest().targets.values():
        model_ops = [layout.model_ops(model) for model in target.models]
        output = layout.selected_operators(target.name)
        # Provenance of operators listed by hand, kept in debug_info.
        source = f"{manifest().path.name}:targets.{target.name}.extra_ops"
        yield {
            "name": target.name,
            "actions": [(write_selection, [target, source, model_ops, output])],
            "file_dep": [*model_ops, Path("codegen/selection.py")],
            "targets": [output, layout.provenance(target.name)],
            "uptodate": [
                config_changed(
                    {"extra_ops": [str(op) for op in target.extra_ops], "source": source}
                )
            ],
            "clean": True,
        }
