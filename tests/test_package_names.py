"""Every import of our code names the one installed package, `selective_build` (issue: a
wheel must not install generic top-level names such as `tasks`). In a checkout `codegen`
and `tasks` are importable from the repository's root as well; a module imported under
both names would be loaded twice, with two copies of every class."""

from __future__ import annotations

import ast
import subprocess

from tests.conftest import REPO

OLD_NAMES = ("codegen", "tasks", "runtime", "kernels")


def _python_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=REPO, capture_output=True, text=True, check=True
    )
    return listed.stdout.split()


def _top_level_imports(name: str) -> list[str]:
    found = []
    tree = ast.parse((REPO / name).read_text(encoding="utf-8"), name)
    for node in ast.walk(tree):
        modules = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        found += [f"{name}:{node.lineno}: {m}" for m in modules if m.split(".")[0] in OLD_NAMES]
    return found


def test_no_module_imports_a_folder_by_its_bare_name() -> None:
    files = _python_files()
    assert len(files) > 300
    found = [line for name in files for line in _top_level_imports(name)]
    assert not found, "\n".join(found)


def test_the_repository_s_folders_are_links_into_the_package() -> None:
    for part in OLD_NAMES:
        link = REPO / part
        assert link.is_symlink() and link.resolve() == REPO / "selective_build" / part
