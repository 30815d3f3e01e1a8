"""Stage 1: the operators and kernel keys of every model, cached per model file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.pte import read_model_ops
from codegen.selection import Selection
from codegen.writer import write_if_changed
from tasks import layout
from tasks.actions import reports_user_errors
from tasks.config import manifest

READER_CODE = [
    Path("codegen/pte.py"),
    Path("codegen/flatbuffer.py"),
    Path("codegen/model.py"),
    Path("codegen/selection.py"),
    Path("codegen/scalar_type.py"),
]


@reports_user_errors
def write_model_ops(model: Path, output: Path) -> None:
    selection = Selection.from_model(read_model_ops(model), model.name)
    write_if_changed(output, selection.to_yaml())


def task_model_ops() -> Iterator[dict[str, Any]]:
    """Read each model's operators and kernel keys (build/models/<model>.ops.yaml)."""
    for model in manifest().models.values():
        output = layout.model_ops(model.name)
        yield {
            "name": model.name,
            "actions": [(write_model_ops, [model.path, output])],
            "file_dep": [model.path, *READER_CODE],
            "targets": [output],
            # The model's file name is recorded in debug_info.
            "uptodate": [config_changed(model.path.name)],
            "clean": True,
        }
