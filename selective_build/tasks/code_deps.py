"""The code a stage runs, as files: the import closure within the project of the modules
that define its actions, so that editing any module a stage imports reruns that stage.
Every task that runs our Python code lists `action_code(...)` of its actions in `file_dep`
(a test holds every stage to it: tests/test_code_edits.py).

The closure is read from the source (`ast`), not from `sys.modules`: nothing is imported to
compute it, and an import inside a function or an `if TYPE_CHECKING:` block counts too (a
superset of what one run imports, which is the safe side for a dependency).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from selective_build.tasks import layout

TOP = "selective_build"
PACKAGES = ("codegen", "tasks")  # our own code; everything else is an installed dependency


def code_closure(module: str) -> list[Path]:
    """The files of `module` and of every project module it imports, directly or not,
    package `__init__.py` files included; sorted."""
    return sorted(_closure(layout.source_root(), module))


def action_code(*actions: Callable[..., object]) -> list[Path]:
    """The files of the code `actions` run: the import closures of the modules defining
    them, together; sorted."""
    files: set[Path] = set()
    for action in actions:
        files |= _closure(layout.source_root(), action.__module__)
    return sorted(files)


@cache
def _closure(root: Path, module: str) -> frozenset[Path]:
    seen: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = _module_file(root, name)
        if path is None:
            continue  # a name imported from a module (a function or class), not a module
        seen[name] = path
        pending.extend(_parents(name))
        if path.suffix == ".py":  # a compiled module imports nothing of ours
            pending.extend(_imported(path))
    return frozenset(seen.values())


def _module_file(root: Path, name: str) -> Path | None:
    parts = name.split(".")
    # `selective_build` itself holds only a docstring: no stage's result depends on it.
    if parts[0] != TOP or len(parts) < 2 or parts[1] not in PACKAGES:
        return None
    base = root.joinpath(*parts[1:])
    # A compiled module (codegen/pte/_keys.c, built by pip) is what Python loads when built.
    compiled = [base.with_name(base.name + suffix) for suffix in EXTENSION_SUFFIXES]
    for candidate in (base.with_suffix(".py"), base / "__init__.py", *compiled):
        if candidate.is_file():
            return candidate
    return None


def _parents(name: str) -> list[str]:
    """Importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first."""
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


def _imported(path: Path) -> set[str]:
    """Every module name `path` may import: `import a.b`, `from a import b` (b may be a
    submodule or a name in a: both are tried). The project uses absolute imports only
    (ruff's isort keeps it so); a relative import would be missed, so it is refused."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise ValueError(f"{path}:{node.lineno}: relative import; write it absolute")
            base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found
