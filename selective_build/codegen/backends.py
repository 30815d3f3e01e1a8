"""The delegate backends a target's programs call, and which runtime can provide them.

A program lowered to a backend (XNNPACK, ...) runs part of its work as a DelegateCall to
that backend, named by its id (`XnnpackBackend`). Those parts select no kernels, so the
selection never sees them: the model_ops stage records each model's delegate ids
(build/.models/<model>.info.json, `ModelInfo` in codegen/model_info.py), and every target
checks, at build time, that its runtime provides each backend its models call, instead of
the runner failing when it loads the method. Our own runtime provides none; ExecuTorch's
runtime those of its install's libraries (codegen/executorch/install.py). A target's own
`backends` list adds backends no model names (for programs loaded at run time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from selective_build.codegen.errors import InputError

# Note [Our runtime has no backends]: the hint when a delegated program meets our runtime.
OUR_RUNTIME_HINT = 'build it on ExecuTorch\'s runtime (runtime = "executorch" in the target)'


def target_backends(
    target: str,
    delegates: Mapping[str, Sequence[str]],
    listed: Sequence[str],
    provided: frozenset[str] | None,
) -> tuple[str, ...]:
    """The backends `target` links, sorted: those its models call (`delegates`: model ->
    its delegate ids) and those it lists. `provided`: what its runtime can link, None for
    our own runtime (nothing). InputError naming the first model (or the list) and backend
    the runtime cannot provide."""
    needed: dict[str, list[str]] = {}
    for model, ids in sorted(delegates.items()):
        for backend in ids:
            needed.setdefault(backend, []).append(f"model {model}")
    for backend in listed:
        needed.setdefault(backend, []).append(f"targets.{target}.backends")
    for backend, users in sorted(needed.items()):
        if provided is None:
            raise InputError(
                f"target {target}",
                f"{users[0]} delegates to backend {backend}, which our runtime cannot run: "
                + OUR_RUNTIME_HINT,
            )
        if backend not in provided:
            offered = ", ".join(sorted(provided)) or "none"
            raise InputError(
                f"target {target}",
                f"{users[0]} needs backend {backend}, which the target's ExecuTorch install "
                f"does not provide (it links: {offered})",
            )
    return tuple(sorted(needed))
