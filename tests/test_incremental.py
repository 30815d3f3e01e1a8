"""Incremental builds redo exactly what a change requires (counted in tasks that ran)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.workspace import SMALL_MANIFEST, build_small, executed, small_workspace


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = small_workspace(tmp_path_factory.mktemp("incremental"))
    build_small(workdir)
    return workdir


def rebuild(workdir: Path) -> list[str]:
    return executed(build_small(workdir))


def test_touching_a_model_rebuilds_nothing(workdir: Path) -> None:
    model = workdir / "examples" / "models" / "mlp" / "mlp.pte"
    os.utime(model, (model.stat().st_atime, model.stat().st_mtime + 100))
    assert rebuild(workdir) == []
    assert rebuild(workdir) == []


def test_copying_a_model_over_itself_rebuilds_nothing(workdir: Path) -> None:
    model = workdir / "examples" / "models" / "add_mul" / "add_mul.pte"
    data = model.read_bytes()
    model.unlink()
    model.write_bytes(data)
    assert rebuild(workdir) == []


def test_editing_one_target_rebuilds_only_that_target(workdir: Path) -> None:
    manifest = workdir / SMALL_MANIFEST
    text = manifest.read_text()
    # One more operator for the mlp target, and room for it in its budget.
    head, _, rest = text.partition("[targets.mlp]\n")
    block, separator, tail = rest.partition("\n[")
    block = re.sub(r'size_budget = "[^"]*"', 'size_budget = "64 KiB"', block)
    block += '\nop_dtypes = { "aten::mul.out" = ["Float"] }'
    edited = f"{head}[targets.mlp]\n{block}{separator}{tail}"
    manifest.write_text(edited)
    ran = rebuild(workdir)
    assert ran, "the edit must rebuild the mlp target"
    assert all(task.endswith(":mlp") or "/mlp/" in task for task in ran), ran
    compiled = {task for task in ran if task.startswith("compile:")}
    # Only the new kernel and the registration (Note [Per-source dtype headers]).
    assert compiled == {
        "compile:build/mlp/obj/kernels/portable/op_mul.o",
        "compile:build/mlp/obj/selected_kernels.o",
    }
    assert rebuild(workdir) == []
