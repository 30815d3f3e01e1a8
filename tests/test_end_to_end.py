"""`doit build` of the default manifest in a copy of the repository."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from selective_build.codegen.manifest import load_manifest
from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.workspace import REPO, all_verified, copy_repository, doit, executed


def default_manifest() -> dict[str, Any]:
    """selective.toml as TOML, without the manifest reader under test."""
    return tomllib.loads((REPO / "selective.toml").read_text())


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    workdir = copy_repository(tmp_path_factory.mktemp("e2e"))
    return workdir, doit(workdir, "build")


def test_build_succeeds_and_prints_a_summary_per_target(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, result = built
    assert result.returncode == 0, result.stdout + result.stderr
    # The tests below loop over what load_manifest reads: check it against the file itself
    # (load_manifest adds baseline targets such as all-operators.host.portable).
    targets = load_manifest(REPO / "selective.toml").targets
    declared = default_manifest()["targets"]
    assert {"add_mul", "mlp", "dynamic", "shapes", "both", "all", "examples"} <= set(declared)
    for name, table in declared.items():
        assert name in targets and list(targets[name].models) == table.get("models", []), name
    for target in targets.values():
        lines = [line for line in result.stdout.splitlines() if line.startswith(f"{target.name}: ")]
        if not target.runner:
            said = any(line.endswith("library only, not run") for line in lines)
        elif not target.models:
            said = any(line.endswith("no models") for line in lines)
        else:
            said = any(all_verified(line, len(target.models)) for line in lines)
        assert said, result.stdout
        assert (workdir / "build" / target.name / "runner").is_file() == target.runner
        assert (workdir / "build" / target.name / "package" / "lib").is_dir()
    # The default manifest shows a library-only target.
    assert any(not target.runner for target in targets.values())


def test_every_model_of_every_target_verified(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """Each one ok, each output compared with a reference that is not degenerate, the
    worst error within float32's bound at the output's scale (Note [Scaled tolerance])."""
    workdir, _ = built
    manifest = load_manifest(REPO / "selective.toml")
    for target in manifest.targets.values():
        report = json.loads((workdir / "build" / target.name / "verify.json").read_text())
        assert set(report["models"]) == set(target.models)
        for name, result in report["models"].items():
            if not target.runner:
                detail = "runner = false: nothing runs the models"
                assert result == {"status": "library only", "detail": detail}
                continue
            assert result["status"] == "ok", (target.name, name, result)
            outputs = result["outputs"]
            assert len(outputs) == len(manifest.models[name].outputs)
            for output in outputs:
                assert output["scale"] > 1e-5, (target.name, name, output)
                assert output["worst_error"] <= 1e-4 * output["scale"], (target.name, name)


def test_registry_slots_equal_the_kernels_registered(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, _ = built
    for target in load_manifest(REPO / "selective.toml").targets:
        size = json.loads((workdir / "build" / target / "size.json").read_text())
        header = (workdir / "build" / target / "gen" / "selected_registry_size.h").read_text()
        assert size["registry_slots"] == size["kernels"] > 0
        assert f"#define SELECTIVE_REGISTRY_CAPACITY {size['kernels']}\n" in header


def test_size_report_counts_the_registry(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, _ = built
    size = json.loads((workdir / "build" / "add_mul" / "size.json").read_text())
    assert size["registry_slots"] == size["kernels"] == 2
    assert size["file"] == (workdir / "build" / "add_mul" / "runner").stat().st_size
    assert 0 < size["text"] < size["file"]
    assert size["file"] <= size["budget"]
    # The runtime as a static library, without the runner's command line.
    library = size["library"]
    assert library["objects"] > 0 and 0 < library["text"]
    assert library["file"] == (workdir / "build" / "add_mul" / "libruntime.a").stat().st_size


def test_second_build_executes_no_task(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, _ = built
    again = doit(workdir, "build")
    assert again.returncode == 0, again.stderr
    assert executed(again.stdout) == []


def test_runtime_objects_are_shared_between_targets(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, result = built
    compiled = [task for task in executed(result.stdout) if task.startswith("compile:")]
    assert len(compiled) == len(set(compiled))
    loader = [task for task in compiled if task.endswith("runtime/loader/program.o")]
    assert len(loader) == 1


def test_runner_rejects_a_model_with_an_operator_it_lacks(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, _ = built
    model = workdir / "examples" / "models" / "mlp"
    run = subprocess.run(
        [
            str(workdir / "build" / "add_mul" / "runner"),
            str(model / "mlp.pte"),
            "--input",
            str(model / "in0.npy"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "aten::" in lines[0] and "mlp.pte" in lines[0], run.stderr


def test_budget_breach_fails_the_build(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, _ = built
    manifest = workdir / "selective.toml"
    original = manifest.read_text()
    manifest.write_text(original.replace('size_budget = "24 KiB"', 'size_budget = "1 KiB"'))
    try:
        result = doit(workdir, "build")
        assert result.returncode != 0
        assert "error: target add_mul: runner is" in result.stdout
        assert "over its budget of 1.0 KiB (1,024 B)" in result.stdout
        assert executed(result.stdout) == ["size:add_mul"]
    finally:
        manifest.write_text(original)
    restored = doit(workdir, "build")
    # size.json is back to the bytes the summary last saw: the summary stays up to date.
    assert restored.returncode == 0 and executed(restored.stdout) == ["size:add_mul"]


def test_manifest_mistake_is_one_line(tmp_path: Path) -> None:
    workdir = copy_repository(tmp_path)
    manifest = workdir / "selective.toml"
    manifest.write_text(
        manifest.read_text().replace('models = ["add_mul"]', 'models = ["nope"]', 1)
    )
    result = doit(workdir, "build")
    assert result.returncode == 2
    defined = ", ".join(sorted(default_manifest()["models"]))
    assert result.stderr == (
        "error: selective.toml: targets.add_mul.models[0]: unknown model 'nope' "
        f"(defined: {defined})\n"
    )


def test_doit_commands_know_the_tasks_created_after_codegen(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    workdir, _ = built
    info = doit(workdir, "info", "link:add_mul")
    assert info.returncode == 0 and "build/add_mul/runner" in info.stdout, info.stderr
    listed = doit(workdir, "list", "--all")
    assert "summary:add_mul" in listed.stdout and "compile:" in listed.stdout
    forget = doit(workdir, "forget", "summary:add_mul")
    assert forget.returncode == 0, forget.stderr
    again = doit(workdir, "build")
    assert "summary:add_mul" in executed(again.stdout)


def test_unselected_dtype_fails_naming_op_and_dtype(
    built: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """The add_mul runner kept only Float: a Long add fails with one line."""
    workdir, _ = built
    long = Tensor(ScalarType.Long, (2,))
    call = KernelCall(OperatorName.parse("aten::add.out"), (0, 1, 2, 3, 3))
    save_program(
        [Method("forward", (long, long, 1, long), (0, 1), (3,), (call,))], tmp_path / "long_add.pte"
    )
    numbers = tmp_path / "x.npy"
    np.save(numbers, np.array([1, 2], dtype=np.int64))
    run = subprocess.run(
        [
            str(workdir / "build" / "add_mul" / "runner"),
            str(tmp_path / "long_add.pte"),
            "--input",
            str(numbers),
            "--input",
            str(numbers),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "aten::add.out" in lines[0] and "Long" in lines[0], run.stderr
    assert "not selected" in lines[0]


def test_custom_operator_from_the_users_library_is_selected_built_and_verified(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """examples/custom_ops: my_ops::mul3.out and affine.out, torch.library operators, served
    by the kernels of a library outside kernels/, only at the dtype the model calls them with."""
    workdir, _ = built
    target = workdir / "build" / "custom_ops"
    size = json.loads((target / "size.json").read_text())
    rows = {row["op"]: row for row in size["kernel_table"]}
    assert set(rows) == {
        "aten::add.out",
        "aten::mul.out",
        "my_ops::mul3.out",
        "my_ops::affine.out",
    }
    for name in ("mul3", "affine"):
        row = rows[f"my_ops::{name}.out"]
        assert (row["library"], row["function"], row["bucket"]) == (
            "my_ops",
            f"my_ops::{name}_out",
            f"kernel:my_ops/op_{name}",
        )
    # The typed signature generated from custom_ops.yaml's func:, in the kernel's namespace.
    header = (target / "gen" / "kernel_functions.h").read_text()
    assert "namespace my_ops {" in header
    assert (
        "rt::Tensor& mul3_out(rt::KernelContext& context, const rt::Tensor& input, "
        "rt::Tensor& out);" in header
    )
    assert (
        "rt::Tensor& affine_out(rt::KernelContext& context, const rt::Tensor& input, "
        "double scale, double bias, rt::Tensor& out);" in header
    )
    for name in ("mul3", "affine"):
        variants = (
            target / "gen" / "ops" / "custom_ops" / f"op_{name}" / "selected_op_variants.h"
        ).read_text()
        assert f'{{"my_ops::{name}.out", DtypeSet(0x00000040u)}},  // Float' in variants
    verify = json.loads((target / "verify.json").read_text())
    assert verify["models"]["custom_ops"]["status"] == "ok"
    assert [o["scale"] for o in verify["models"]["custom_ops"]["outputs"]] == [4.53169]
    # A runner built without the library refuses the program, naming the custom operator.
    model = workdir / "examples" / "custom_ops" / "model"
    run = subprocess.run(
        [
            str(workdir / "build" / "add_mul" / "runner"),
            str(model / "custom_ops.pte"),
            "--input",
            str(model / "in0.npy"),
            "--input",
            str(model / "in1.npy"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert len(run.stderr.strip().splitlines()) == 1
    assert "operator my_ops::mul3.out is not in this runner" in run.stderr


def test_custom_kernel_computes_and_keeps_only_the_selected_dtype(
    built: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """my_ops::mul3.out alone on the custom_ops runner: 3 * x at the model's dtype (Float);
    a Long call fails in one line, since that dtype was not compiled into the kernel."""
    workdir, _ = built
    runner = str(workdir / "build" / "custom_ops" / "runner")
    mul3 = OperatorName.parse("my_ops::mul3.out")
    x = np.arange(-3, 3).reshape(2, 3)
    for dtype, array in ((ScalarType.Float, x.astype(np.float32)), (ScalarType.Long, x)):
        tensor = Tensor(dtype, (2, 3))
        # The emitter's layout: the argument input, the argument out, the returned out.
        method = Method("forward", (tensor, tensor), (0,), (1,), (KernelCall(mul3, (0, 1, 1)),))
        save_program([method], tmp_path / f"{dtype.name}.pte")
        np.save(tmp_path / f"{dtype.name}.npy", array)
    outputs = tmp_path / "out"
    outputs.mkdir()
    run = subprocess.run(
        [runner, str(tmp_path / "Float.pte"), "--input", str(tmp_path / "Float.npy")]
        + ["--output-dir", str(outputs)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    result = np.load(outputs / "output0.npy")
    assert result.dtype == np.float32 and np.array_equal(result, 3 * x.astype(np.float32))
    run = subprocess.run(
        [runner, str(tmp_path / "Long.pte"), "--input", str(tmp_path / "Long.npy")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert run.stderr.strip().endswith(
        "my_ops::mul3.out: dtype Long was not selected in this build"
    ), run.stderr
