"""Stage 2: each target's selection, the union of its sources: our selection.json (what
codegen reads), ExecuTorch's selected_operators.yaml and provenance.json derived from it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from selective_build.codegen.backends import target_backends
from selective_build.codegen.kernel_library import read_schema_operators
from selective_build.codegen.manifest import Target
from selective_build.codegen.model_info import ModelInfo
from selective_build.codegen.selection import Selection, read_selection
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import reports_user_errors
from selective_build.tasks.engine.evidence import Reads
from selective_build.tasks.manifest import manifest
from selective_build.tasks.preflight import preflight_action, preflight_config, preflight_files
from selective_build.tasks.runtimes import runtime_of


def target_selection(target: Target, manifest_name: str, model_ops: list[Path]) -> Selection:
    """Everything `target` selects; each source is named in debug_info and provenance."""
    key = f"{manifest_name}:targets.{target.name}"
    selection = Selection(include_all_operators=target.include_all_operators)
    selection |= Selection.from_operators(target.extra_ops, f"{key}.extra_ops")
    selection |= Selection.from_op_dtypes(target.op_dtypes, f"{key}.op_dtypes")
    for schema in target.op_schemas:
        selection |= Selection.from_operators(read_schema_operators(schema), str(schema))
    for path in [*target.selections, *model_ops]:
        selection |= read_selection(path)
    return selection


def check_backends(
    target: Target, model_infos: list[Path], provided: frozenset[str] | None
) -> None:
    """The backends the target's models delegate to, and those it lists, must be ones its
    runtime provides (`provided`; None: ours, which runs no delegate): else the build stops
    here, naming model and backend (codegen/backends.py)."""
    delegates = {
        model: ModelInfo.read(info).delegates
        for model, info in zip(target.models, model_infos, strict=True)
    }
    target_backends(target.name, delegates, target.backends, provided)


@reports_user_errors
def write_selection(
    target: Target,
    manifest_name: str,
    model_ops: list[Path],
    model_infos: list[Path],
    provided: frozenset[str] | None,
) -> None:
    check_backends(target, model_infos, provided)
    paths = layout.paths()
    selection = target_selection(target, manifest_name, model_ops)
    write_if_changed(paths.selection(target.name), selection.to_json())
    write_if_changed(paths.selected_operators(target.name), selection.to_yaml())
    write_if_changed(paths.provenance(target.name), selection.provenance().to_json())


def task_selection(reads: Reads) -> Iterator[dict[str, Any]]:
    """Merge each target's models and other sources into selected_operators.yaml."""
    paths = layout.paths()
    current = manifest()
    for target in current.targets.values():
        model_ops = [paths.model_ops(model) for model in target.models]
        model_infos = [paths.model_info(model) for model in target.models]
        # Note [Target runtime]: which delegates the target's runtime can run.
        runtime = runtime_of(target, current.toolchains[target.toolchain], reads)
        provided = runtime.provided_backends()
        arguments = [target, current.path.name, model_ops, model_infos, provided]
        yield {
            "name": target.name,
            "actions": [
                (write_selection, arguments),
                # Mistakes of the manifest a later stage would find, found before compiling;
                # after the selection, whose own inputs' faults are named first.
                preflight_action(current, target),
            ],
            "file_dep": [
                *preflight_files(current, target),
                *model_ops,
                *model_infos,
                *target.op_schemas,
                *target.selections,
                *action_code(write_selection),
            ],
            "targets": [
                paths.selection(target.name),
                paths.selected_operators(target.name),
                paths.provenance(target.name),
            ],
            "uptodate": [
                config_changed(
                    {
                        "manifest": current.path.name,
                        "extra_ops": [str(op) for op in target.extra_ops],
                        "op_dtypes": {op: list(items) for op, items in target.op_dtypes.items()},
                        "include_all_operators": target.include_all_operators,
                        "references": preflight_config(current, target),
                        "backends": list(target.backends),
                        "provided": None if provided is None else sorted(provided),
                    }
                )
            ],
            "clean": True,
        }
