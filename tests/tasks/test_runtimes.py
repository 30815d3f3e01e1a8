"""A second runtime, defined by the tests alone (tests/codegen/plan_support.py), plugged into
the registry (Note [Target runtime], codegen/plan/runtime.py): the task creators of every
stage make its tasks with no change of theirs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from selective_build.codegen.manifest import Manifest, load_manifest
from selective_build.codegen.plan import runtimes
from selective_build.codegen.plan.objects import target_objects
from selective_build.tasks import codegen as codegen_stage
from selective_build.tasks.engine.evidence import Evidence, Reads
from selective_build.tasks.runtimes import runtime_of
from selective_build.tasks.stages import after_codegen
from selective_build.tasks.target import TargetPlan
from tests.codegen.plan_support import (
    TOY_LIBRARIES,
    TOY_PREBUILT,
    ToyRuntime,
    render_toy,
)
from tests.conftest import REPO

READS = Reads(Evidence())


@pytest.fixture
def toy_manifest(monkeypatch: pytest.MonkeyPatch) -> Manifest:
    """The repository's manifest with its add_mul target on the toy runtime."""
    monkeypatch.setitem(runtimes.IMPLEMENTATIONS, "toy", ToyRuntime)
    manifest = load_manifest(REPO / "selective.toml", REPO / "kernels")
    target = replace(manifest.targets["add_mul"], runtime="toy")
    return replace(manifest, targets={"add_mul": target})


def tasks_of(manifest: Manifest) -> dict[str, dict[str, Any]]:
    """Every per-target stage's task of add_mul, as the backend makes them."""
    target = manifest.targets["add_mul"]
    runtime = runtime_of(target, manifest.toolchains[target.toolchain], READS)
    assert isinstance(runtime, ToyRuntime)
    objects = target_objects(runtime, [Path("kernels/portable/op_add.cpp")])
    plan = TargetPlan(manifest, runtime, tuple(objects))
    return {stage.name: stage.per_target(plan) for stage in after_codegen() if stage.per_target}


def test_every_stage_makes_the_toy_runtime_s_tasks(toy_manifest: Manifest) -> None:
    made = tasks_of(toy_manifest)
    assert set(made) == {"link", "size", "verify", "summary", "package"}
    link = made["link"]["uptodate"][0].config
    assert link.split(" strip ")[0].endswith(" ".join(TOY_LIBRARIES))
    [(verify, [step, _])] = made["verify"]["actions"]
    assert step.emulator == ("toy-launch",) and step.environment == (
        ("LD_LIBRARY_PATH", "toy/lib"),
    )
    assert TOY_PREBUILT in made["size"]["file_dep"]
    package_targets = [str(path) for path in made["package"]["targets"]]
    assert any(path.endswith("ToyKernelsConfig.cmake") for path in package_targets)
    for stage in ("verify", "size", "package"):
        assert made[stage]["uptodate"][0].config["runtime"] == "toy"


def test_codegen_renders_the_toy_runtime_s_registration(
    toy_manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(codegen_stage, "manifest", lambda: toy_manifest)
    [task] = codegen_stage.task_codegen(READS)
    [(_, arguments)] = task["actions"]
    assert arguments[1] is render_toy
    assert Path("build/add_mul/gen/toy_registration.cpp") in task["targets"]
    assert task["uptodate"][0].config["runtime"] == "toy"
