"""The seam for runtimes (Note [Target runtime], codegen/plan/runtime.py): a second runtime,
defined by the tests alone, is planned by the plan's steps with no change of theirs; the
registry holds every runtime the manifest accepts; no stage asks which runtime it is."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from selective_build.codegen.manifest import RUNTIMES, Model, Target, Toolchain
from selective_build.codegen.plan.link import link_step
from selective_build.codegen.plan.objects import target_objects
from selective_build.codegen.plan.ours import OurRuntime
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.runtime import TargetContext
from selective_build.codegen.plan.runtimes import IMPLEMENTATIONS, target_runtime
from selective_build.codegen.plan.size import size_step
from selective_build.codegen.plan.verify import verify_step
from tests.codegen.plan_support import (
    TOY_LIBRARIES,
    TOY_PREBUILT,
    TOY_RUNNER,
    ListedDisk,
    ToyRuntime,
    ours,
)
from tests.conftest import REPO

PATHS = BuildPaths(Path("build"), Path("src"), Path("/work"))
HOST = Toolchain("host", "c++", None, ("-Os",), (), "strip", "ar", ("qemu-x",))
ADD = Path("kernels/portable/op_add.cpp")
MODEL = Model("m", Path("m.pte"), "forward", (Path("in0.npy"),), (Path("out0.npy"),))
TARGET = Target("t", ("m",), ("portable",), (), {}, (), (), False, True, None, "host")
# The folders whose modules are stages or plan them: none of them may branch on a runtime.
STAGE_FOLDERS = ("tasks", "codegen/plan")
REGISTRY = "codegen/plan/runtimes.py"


def toy(target: Target = TARGET) -> ToyRuntime:
    return ToyRuntime(TargetContext(PATHS, target, HOST, ListedDisk()))


def test_the_registry_implements_every_runtime_the_manifest_accepts() -> None:
    assert set(IMPLEMENTATIONS) == set(RUNTIMES)
    made = target_runtime(TargetContext(PATHS, TARGET, HOST, ListedDisk()))
    assert isinstance(made, OurRuntime)  # the default


def test_a_second_runtime_compiles_the_same_kernels_around_its_own_objects() -> None:
    objects = target_objects(toy(), [ADD])
    ours_objects = target_objects(ours(PATHS, TARGET, HOST), [ADD])
    assert [step.source for step in objects] == [
        TOY_RUNNER,
        ADD,
        Path("build/t/gen/toy_registration.cpp"),
    ]
    kernel = [step for step in ours_objects if step.source == ADD]
    assert objects[1:2] == kernel  # the kernels are the same objects for every runtime
    assert "-DTOY_RUNNER" in objects[0].flags


def test_a_second_runtime_links_its_prebuilt_libraries_after_the_objects() -> None:
    objects = target_objects(toy(), [ADD])
    step = link_step(toy(), objects)
    assert (
        step.signature()
        .split(" strip ")[0]
        .endswith(" ".join([*(str(o.object) for o in objects), *TOY_LIBRARIES]))
    )
    archive = step.actions[1]
    assert archive.objects == tuple(o.object for o in objects if o.source != TOY_RUNNER)
    library_only = link_step(toy(replace(TARGET, runner=False)), objects[1:])
    assert all(action.objects[0].parts[-1] == "app.o" for action in library_only.actions[1:])


def test_a_second_runtime_s_runner_runs_with_its_prefix_and_environment() -> None:
    step = verify_step(toy(), [MODEL])
    assert step.emulator == ("toy-launch",)
    assert step.environment == (("LD_LIBRARY_PATH", "toy/lib"),)
    ours_step = verify_step(ours(PATHS, TARGET, HOST), [MODEL])
    assert ours_step.emulator == HOST.emulator and ours_step.environment == ()


def test_a_second_runtime_sizes_its_own_parts_and_its_prebuilt_apart() -> None:
    step = size_step(toy(), target_objects(toy(), [ADD]))
    assert [o.bucket for o in step.objects] == ["runner", None, "registration"]
    assert step.prebuilt == (TOY_PREBUILT,)


def test_a_second_runtime_writes_its_own_package() -> None:
    step = toy().package("1.0.0")
    assert Path("build/t/package/lib/cmake/ToyKernels/ToyKernelsConfig.cmake") in step.outputs
    assert step.inputs == [Path("build/t/libruntime.a")]


def _runtime_branches(path: Path, root: Path = REPO) -> list[str]:
    """Where `path` compares with a runtime's name or a `.runtime`, matches on a runtime, or
    imports one runtime's implementation (a branch in disguise)."""
    names = {*RUNTIMES, "executorch"}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                if isinstance(operand, ast.Constant) and operand.value in names:
                    found.append(f"{where}: compares with {operand.value!r}")
                if isinstance(operand, ast.Attribute) and operand.attr == "runtime":
                    found.append(f"{where}: compares a .runtime")
        elif isinstance(node, ast.Match) and "runtime" in ast.unparse(node.subject):
            found.append(f"{where}: matches on a runtime")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "selective_build.codegen.plan.ours"
        ):
            found.append(f"{where}: imports the implementation of a runtime")
    return found


def test_no_stage_asks_which_runtime_it_builds_for() -> None:
    modules = [
        path
        for folder in STAGE_FOLDERS
        for path in sorted((REPO / folder).rglob("*.py"))
        if path.relative_to(REPO).as_posix() != REGISTRY
    ]
    assert len(modules) > 20
    branches = [line for path in modules for line in _runtime_branches(path)]
    assert not branches, "\n".join(branches)


def test_the_check_finds_a_branch_on_the_runtime(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from selective_build.codegen.plan.ours import OurRuntime\n"
        "def flags(target, runtime):\n"
        "    if target.runtime == 'executorch':\n"
        "        return 1\n"
        "    match runtime.name:\n"
        "        case _:\n"
        "            return 'ours' != target.name\n"
    )
    assert sorted(_runtime_branches(sample, tmp_path)) == [
        "sample.py:1: imports the implementation of a runtime",
        "sample.py:3: compares a .runtime",
        "sample.py:3: compares with 'executorch'",
        "sample.py:5: matches on a runtime",
        "sample.py:7: compares with 'ours'",
    ]
