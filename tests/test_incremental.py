"""Incremental builds redo exactly what a change requires (counted in tasks that ran)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
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


def test_editing_a_budget_reruns_only_the_size_check(workdir: Path) -> None:
    manifest = workdir / SMALL_MANIFEST
    manifest.write_text(
        manifest.read_text().replace('size_budget = "24 KiB"', 'size_budget = "32 KiB"', 1)
    )
    ran = rebuild(workdir)
    assert "size:add_mul" in ran
    # The summary prints the size report, which names the budget.
    assert set(ran) <= {"size:add_mul", "summary:add_mul"}, ran
    assert rebuild(workdir) == []


def write_add_mul_sub(path: Path, reference: Path, inputs: list[Path]) -> None:
    """add_mul's graph plus one operator: ((a + b) * b) - a, with its reference output."""
    tensor = Tensor(ScalarType.Float, (2, 2))
    # a, b, alpha = 1, then the three intermediate results.
    values = (tensor, tensor, 1, tensor, tensor, tensor)
    calls = (
        KernelCall(OperatorName.parse("aten::add.out"), (0, 1, 2, 3, 3)),
        KernelCall(OperatorName.parse("aten::mul.out"), (3, 1, 4, 4)),
        KernelCall(OperatorName.parse("aten::sub.out"), (4, 0, 2, 5, 5)),
    )
    save_program([Method("forward", values, (0, 1), (5,), calls)], path)
    a, b = (np.load(p) for p in inputs)
    np.save(reference, ((a + b) * b) - a)


def test_replacing_a_model_with_one_more_op_rebuilds_its_targets(workdir: Path) -> None:
    folder = workdir / "examples" / "models" / "add_mul"
    write_add_mul_sub(
        folder / "add_mul.pte", folder / "out0.npy", [folder / "in0.npy", folder / "in1.npy"]
    )
    ran = rebuild(workdir)
    assert not [task for task in ran if task.endswith(":mlp") or "/mlp/" in task], ran
    compiled = sorted(task.removeprefix("compile:") for task in ran if task.startswith("compile:"))
    # The new kernel, once for add_mul (dtype-selective) and once shared (`both` is not),
    # and the registration of the two targets whose model changed.
    assert len(compiled) == 4, compiled
    shared = [task for task in compiled if task.startswith("build/.obj/")]
    assert len(shared) == 1 and shared[0].endswith("/op_sub.o"), compiled
    assert set(compiled) - set(shared) == {
        "build/add_mul/obj/kernels/portable/op_sub.o",
        "build/add_mul/obj/selected_kernels.o",
        "build/both/obj/selected_kernels.o",
    }
    assert {"verify:add_mul", "verify:both"} <= set(ran)
    assert rebuild(workdir) == []
