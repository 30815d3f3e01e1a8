"""Stage 1: the operators and kernel keys of every model, cached per model file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from selective_build.codegen.model_info import ModelInfo
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.selection import Selection
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import reports_user_errors
from selective_build.tasks.manifest import manifest


@reports_user_errors
def write_model_ops(model: Path, name: str, output: Path, info: Path) -> None:
    """The model's operators, selected by `name`, the manifest's name for it: the name every
    later stage and report gives the model (two models may share a file name)."""
    ops = read_model_ops(model)
    write_if_changed(output, Selection.from_model(ops, name).to_yaml())
    write_if_changed(info, ModelInfo.of(ops).to_json())


def task_model_ops() -> Iterator[dict[str, Any]]:
    """Read each model's operators and kernel keys (build/.models/<model>.ops.yaml) and its
    methods, with their numbers of inputs and outputs, and delegate backends
    (build/.models/<model>.info.json)."""
    for model in manifest().models.values():
        output, info = layout.paths().model_ops(model.name), layout.paths().model_info(model.name)
        yield {
            "name": model.name,
            "actions": [(write_model_ops, [model.path, model.name, output, info])],
            "file_dep": [model.path, *action_code(write_model_ops)],
            "targets": [output, info],
            "clean": True,
        }
