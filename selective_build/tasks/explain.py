"""`doit explain --op aten::add.out [--dtype Float] [--target T]` and `doit explain
--model mlp`: answers from the size reports of the targets already built."""

from __future__ import annotations

import sys
from typing import Any

from selective_build.tasks import layout
from selective_build.tasks.config import manifest_path
from selective_build.tasks.engine.actions import reports_user_errors
from selective_build.tasks.engine.run import Request
from selective_build.tasks.manifest import manifest


@reports_user_errors
def explain(program: str, op: str, dtype: str, model: str, target: str) -> bool:
    from selective_build.codegen.size.document import SizeDocument
    from selective_build.codegen.size.explain import explain_model, explain_operator

    known = manifest().targets
    if target and target not in known:
        defined = ", ".join(sorted(known))
        print(
            f"error: {manifest_path()}: unknown target {target!r} (defined: {defined})",
            file=sys.stderr,
        )
        return False
    names = [target] if target else sorted(known)
    documents: dict[str, SizeDocument] = {}
    for name in names:
        path = layout.paths().size_json(name)
        if path.is_file():
            # Read through the codec: a damaged report is one line naming it.
            documents[name] = SizeDocument.read(path)
    if not documents:
        print(f"error: no size report yet: run `{program} build` first", file=sys.stderr)
        return False
    if not op and not model:
        print("error: explain needs --op OPERATOR (and --dtype) or --model MODEL", file=sys.stderr)
        return False
    try:
        lines = explain_operator(documents, op, dtype or None) if op else []
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return False
    if model:
        lines += explain_model(documents, model)
    print("\n".join(lines))
    return True


def task_explain(request: Request) -> dict[str, Any]:
    """Why an operator is in a runner and what it costs; what dropping a model saves."""
    return {
        "actions": [(explain, [request.program])],
        "params": [
            {"name": name, "long": name, "default": "", "help": help}
            for name, help in (
                ("op", "operator, e.g. aten::add.out (or aten::add: every overload)"),
                ("dtype", "with --op: one dtype, e.g. Float"),
                ("model", "a model name: what dropping it from each target would save"),
                ("target", "only this target (default: every built target)"),
            )
        ],
        "verbosity": 2,
        "uptodate": [False],
    }
