"""The code a stage depends on is the import closure of its task module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.code_deps import code_closure

ROOT = Path(__file__).resolve().parents[2]
STAGES = [
    "tasks.models",
    "tasks.selection",
    "tasks.codegen",
    "tasks.size",
    "tasks.package",
    "tasks.summary",
    "tasks.verify",
]


def imported_project_files(module: str) -> set[Path]:
    """What Python itself loads from codegen/ and tasks/ when it imports `module`."""
    script = (
        f"import json, sys; import {module}; "
        "print(json.dumps([getattr(m, '__file__', None) for m in list(sys.modules.values())]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    files = {Path(f).resolve() for f in json.loads(out) if f}
    return {f for f in files if f.parent.name in ("codegen", "tasks") and f.parent.parent == ROOT}


@pytest.mark.parametrize("module", STAGES)
def test_the_closure_holds_every_module_python_imports(module: str) -> None:
    closure = {path.resolve() for path in code_closure(module)}
    missing = imported_project_files(module) - closure
    assert not missing, sorted(str(m) for m in missing)
    assert ROOT / (module.replace(".", "/") + ".py") in closure


def test_a_module_reached_only_through_another_is_in_the_closure() -> None:
    # tasks.models imports codegen.pte, which imports codegen.flatbuffer.
    names = {path.name for path in code_closure("tasks.models")}
    assert {"models.py", "pte.py", "flatbuffer.py", "__init__.py"} <= names


def test_a_relative_import_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "__init__.py").write_text("")
    (tmp_path / "tasks" / "stage.py").write_text("from . import other\n")
    monkeypatch.setattr("tasks.layout.source_root", lambda: tmp_path)
    with pytest.raises(ValueError, match="relative import"):
        code_closure("tasks.stage")
