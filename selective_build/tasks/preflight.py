"""The checks of codegen/preflight.py as the first action of each target's selection task:
the stage that first holds what they need (the models' info from model_ops) and runs
before anything compiles. What they read and use is added to that task's dependencies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from selective_build.codegen.manifest import Manifest, Target
from selective_build.codegen.model_info import ModelInfo
from selective_build.codegen.preflight import (
    check_model_references,
    check_operator_names,
    named_operators,
)
from selective_build.codegen.references import is_archive
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import reports_user_errors


@reports_user_errors
def preflight(manifest: Manifest, target: Target) -> None:
    libraries = [manifest.libraries[name] for name in target.libraries]
    check_operator_names(manifest.path, target, libraries)
    for name in target.models:
        model = manifest.models[name]
        if model.outputs:
            info = ModelInfo.read(layout.paths().model_info(name))
            check_model_references(manifest.path, model, info)


def preflight_action(manifest: Manifest, target: Target) -> tuple[Any, list[Any]]:
    return (preflight, [manifest, target])


def preflight_files(manifest: Manifest, target: Target) -> list[Path]:
    """The files the checks read: the models' info, the reference archives they count, and
    the libraries' YAML when the target names operators itself."""
    models = [manifest.models[name] for name in target.models]
    libraries = [manifest.libraries[name].functions for name in target.libraries]
    return [
        *(layout.paths().model_info(model.name) for model in models if model.outputs),
        *(p for model in models for p in (*model.inputs, *model.outputs) if is_archive(p)),
        *(libraries if named_operators(target) else []),
        *action_code(preflight),
    ]


def preflight_config(manifest: Manifest, target: Target) -> dict[str, Any]:
    """What the checks take from the manifest besides files: each model's method and
    reference lists."""
    models = [manifest.models[name] for name in target.models]
    return {
        model.name: [model.method, [str(p) for p in model.inputs], [str(p) for p in model.outputs]]
        for model in models
    }
