"""Mistakes in a manifest that a later stage would find, found before anything compiles:
each is one `InputError` naming the manifest and the key, with the fix.

- An operator a target names (`extra_ops`, `op_dtypes`) that none of its libraries
  implements: codegen would fail to resolve it. The error offers the closest operator the
  libraries do implement (`aten::sbu.out`: did you mean `aten::sub.out`).
- A model's method, and how many reference inputs and outputs it is given, against what
  its program says (build/.models/<model>.info.json, codegen/model_info.py): the runner
  would refuse them only after the build compiled it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.hints import did_you_mean
from selective_build.codegen.kernel_library import read_schema_operators
from selective_build.codegen.manifest.model import Library, Model, Target
from selective_build.codegen.model import OperatorName
from selective_build.codegen.model_info import ModelInfo
from selective_build.codegen.references import is_archive, references


def named_operators(target: Target) -> list[tuple[str, OperatorName]]:
    """The operators `target` names itself, each with its key in the manifest."""
    key = f"targets.{target.name}"
    return [
        *((f"{key}.extra_ops[{i}]", op) for i, op in enumerate(target.extra_ops)),
        *((f"{key}.op_dtypes.{op!r}", OperatorName.parse(op)) for op in target.op_dtypes),
    ]


def check_operator_names(manifest: Path, target: Target, libraries: Iterable[Library]) -> None:
    """Every operator `target` names is one of its libraries' (`libraries`, the target's)."""
    named = named_operators(target)
    if not named:
        return
    known = {str(op) for library in libraries for op in read_schema_operators(library.functions)}
    for key, operator in named:
        if str(operator) not in known:
            raise InputError(
                manifest,
                f"{key}: {operator} is implemented by none of the target's libraries"
                f" ({', '.join(target.libraries)}){did_you_mean(str(operator), known)}",
            )


def check_model_references(manifest: Path, model: Model, info: ModelInfo) -> None:
    """`model`'s method is one of its program's, and its reference inputs and outputs are
    as many as that method takes and gives. A model without reference outputs is not run,
    so nothing is checked."""
    if not model.outputs:
        return
    key = f"models.{model.name}"
    method = info.method(model.method)
    if method is None:
        methods = [m.name for m in info.methods]
        raise InputError(
            manifest,
            f"{key}.method: {model.path.name} has no method {model.method!r} (its methods:"
            f" {', '.join(methods) or 'none'}){did_you_mean(model.method, methods)}",
        )
    for kind, paths, wanted in (
        ("inputs", model.inputs, method.inputs),
        ("outputs", model.outputs, method.outputs),
    ):
        given = len(references(paths, kind))
        if given == wanted:
            continue
        if len(paths) == 1 and is_archive(paths[0]):
            what = f"{paths[0].name} holds {_count(given, kind[:-1] + ' array')}"
        else:
            what = _count(given, "file")
        raise InputError(
            manifest,
            f"{key}.{kind}: {what} for the {_count(wanted, kind[:-1])} of method"
            f" {method.name!r} of {model.path.name}",
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
