"""The code a stage depends on is the import closure of its task module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from selective_build.tasks import stages as stage_table
from selective_build.tasks.code_deps import action_code, code_closure
from selective_build.tasks.compile_action import compile_object
from selective_build.tasks.link_action import archive, link
from selective_build.tasks.models import write_model_ops

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "selective_build"
STAGES = [stage.code for stage in stage_table.STAGES]


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
    # Subpackages (codegen/pte/) included.
    return {
        f for f in files if any(f.is_relative_to(PACKAGE / top) for top in ("codegen", "tasks"))
    }


@pytest.mark.parametrize("module", STAGES)
def test_the_closure_holds_every_module_python_imports(module: str) -> None:
    closure = {path.resolve() for path in code_closure(module)}
    missing = imported_project_files(module) - closure
    assert not missing, sorted(str(m) for m in missing)
    assert ROOT / (module.replace(".", "/") + ".py") in closure


def test_a_module_reached_only_through_another_is_in_the_closure() -> None:
    # tasks.models imports codegen.pte, whose __init__ imports codegen.pte.reader, which
    # imports codegen.pte.table; the writer is imported by none of them.
    closure = {path.resolve() for path in code_closure("selective_build.tasks.models")}
    pte = PACKAGE / "codegen" / "pte"
    assert {pte / "__init__.py", pte / "reader.py", pte / "table.py"} <= closure
    assert PACKAGE / "tasks" / "models.py" in closure
    assert pte / "writer.py" not in closure


def test_a_relative_import_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "__init__.py").write_text("")
    (tmp_path / "tasks" / "stage.py").write_text("from . import other\n")
    monkeypatch.setattr("selective_build.tasks.layout.source_root", lambda: tmp_path)
    with pytest.raises(ValueError, match="relative import"):
        code_closure("selective_build.tasks.stage")


def test_an_action_s_code_is_the_closure_of_the_module_defining_it() -> None:
    # write_model_ops is wrapped (reports_user_errors): its module is still tasks.models.
    assert action_code(write_model_ops) == code_closure("selective_build.tasks.models")
    assert action_code(link, archive) == code_closure("selective_build.tasks.link_action")


def test_a_compile_runs_only_the_code_that_starts_a_command() -> None:
    """Note [Tool step code]: no manifest parser, planner, reader or renderer, so editing
    them does not recompile every object."""
    files = map(Path.resolve, action_code(compile_object))
    code = {path.relative_to(PACKAGE).as_posix() for path in files}
    assert {"tasks/compile_action.py", "tasks/engine/actions.py", "codegen/plan/steps.py"} <= code
    heavy = {
        "codegen/manifest/__init__.py",
        "codegen/plan/objects.py",
        "codegen/render.py",
        "codegen/selection.py",
    }
    assert not code & heavy, sorted(code & heavy)
