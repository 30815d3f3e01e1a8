"""Stage 7: the verify step (codegen/plan/verify.py) as a task: run every model of a target
on its runner and compare with the references.

A runner built for another processor runs through its toolchain's emulator; with none,
the target is "not verified" (one line, and its summary says so), never an exec error.
The runner writes only into build/<target>/verify/<model>/ (Note [Build folder apart from
its sources], codegen/build_folder.py), and only as many bytes as the model's
`output_limit` allows."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from doit.task import clean_targets
from doit.tools import config_changed

from selective_build.codegen.machine import elf_machine, runs_here
from selective_build.codegen.manifest import Model
from selective_build.codegen.plan.verify import VerifyStep, verify_step
from selective_build.codegen.pte.outputs import read_output_bytes
from selective_build.codegen.references import with_npy_files
from selective_build.codegen.units import format_size
from selective_build.codegen.verification import (
    DEGENERATE,
    FAILED,
    LIBRARY_ONLY,
    NOT_VERIFIED,
    OK,
    UNVERIFIED,
    ModelResult,
    OutputError,
    Verification,
)
from selective_build.codegen.verify import (
    check_output,
    degenerate_detail,
    runner_npy_problem,
    runner_ready_input,
)
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import remove_folder, reports_user_errors
from selective_build.tasks.target import TargetPlan

RUN_TIMEOUT_SECONDS = 120


def run_model(
    runner: Path,
    model: Model,
    output_dir: Path,
    emulator: tuple[str, ...] = (),
    environment: tuple[tuple[str, str], ...] = (),
) -> ModelResult:
    """How the model ran and compared with its references; the runner writes into
    `output_dir` (build/<target>/verify/<model>), emptied first, and runs behind `emulator`
    with `environment` added to its own (the target runtime's: Note [Target runtime])."""
    # Note [Reference archives]: the runner reads .npy files.
    model = with_npy_files(model, output_dir.with_name(f"{output_dir.name}.references"))
    problem = _before_running(model) or fresh_folder(output_dir)
    if problem is not None:
        return ModelResult(FAILED, problem)
    command = [
        *emulator,
        str(runner),
        str(model.path),
        "--method",
        model.method,
        "--output-dir",
        str(output_dir),
    ]
    for index, path in enumerate(model.inputs):
        command += ["--input", str(runner_ready_input(path, output_dir, index))]
    problem = _run(command, environment)
    if problem is not None:
        return ModelResult(FAILED, problem)
    outputs, degenerate = [], []
    for index, expected in enumerate(model.outputs):
        check = check_output(expected, output_dir / f"output{index}.npy")
        if check.problem is not None:
            return ModelResult(FAILED, check.problem)
        assert check.comparison is not None  # compared: no problem
        outputs.append(OutputError(check.comparison.scale, check.comparison.worst_error))
        if check.comparison.degenerate:
            degenerate.append(degenerate_detail(index, check.comparison))
    if (output_dir / f"output{len(model.outputs)}.npy").exists():
        problem = f"the runner wrote more outputs than the {len(model.outputs)} references"
        return ModelResult(FAILED, problem)
    if degenerate:
        return ModelResult(DEGENERATE, "; ".join(degenerate), tuple(outputs))
    return ModelResult(OK, None, tuple(outputs))


def _before_running(model: Model) -> str | None:
    """What keeps the model from running, found without running it: an input or reference
    the runner cannot carry, or outputs over the model's limit."""
    for kind, paths in (("input", model.inputs), ("reference", model.outputs)):
        for path in paths:
            problem = runner_npy_problem(path)
            if problem:
                return f"{kind} {path}: {problem}"
    sizes = read_output_bytes(model.path, model.method) or ()
    if sum(sizes) <= model.output_limit:
        return None
    largest = max(range(len(sizes)), key=lambda index: sizes[index])
    what = (
        f"output {largest} would be {format_size(sizes[largest])}"
        if sizes[largest] > model.output_limit
        else f"its {len(sizes)} outputs would be {format_size(sum(sizes))} together"
    )
    return (
        f"{what}, over the verify limit of {format_size(model.output_limit)}; raise it "
        f'with output_limit = "{_limit_hint(sum(sizes))}" in [models.{model.name}]'
    )


def _limit_hint(size: int) -> str:
    """A round limit of at least `size` bytes, as a manifest would spell it."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{-(-size // scale)} {unit}"
    return f"{size} B"


def _run(command: list[str], environment: tuple[tuple[str, str], ...]) -> str | None:
    try:
        completed = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_SECONDS,
            env={**os.environ, **dict(environment)},
        )
    except subprocess.TimeoutExpired:
        return f"runner did not finish within {RUN_TIMEOUT_SECONDS} s"
    except OSError as error:  # a missing emulator, or a runner this machine cannot run
        return f"cannot run {command[0]}: {error.strerror}"
    if completed.returncode < 0:
        return f"runner crashed with signal {-completed.returncode}"
    if completed.returncode != 0:
        lines = completed.stderr.strip().splitlines()
        return lines[-1] if lines else f"runner exited with {completed.returncode}"
    return None


def fresh_folder(folder: Path) -> str | None:
    """Make `folder` (build/<target>/verify/<model>) an empty folder of the target's own,
    or say why it cannot be: a symbolic link found at it or at its parent (put there by
    hand: the build makes none) is removed, never followed, and a target folder that
    resolves elsewhere is refused, so the runner's outputs land nowhere but below
    build/<target>/ (Note [Build folder apart from its sources])."""
    target = folder.parent.parent
    if os.path.realpath(target) != os.path.join(os.path.realpath(target.parent), target.name):
        return (
            f"{target} is a symbolic link to {os.path.realpath(target)}: verification writes "
            "only into the build folder's own target folders; remove the link"
        )
    for path in (folder.parent, folder):
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            path.unlink()
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return None


def not_runnable(runner: Path, toolchain: str, emulator: tuple[str, ...]) -> str | None:
    """Why the runner cannot be run here, or None."""
    if emulator:
        return None
    machine = elf_machine(runner)
    if runs_here(machine):
        return None
    return f"runner is {machine}, no emulator for toolchain {toolchain}"


@reports_user_errors
def verify(step: VerifyStep, runner: Path) -> bool:
    target, models = step.target, list(step.models)
    results: dict[str, ModelResult] = {}
    reason = not_runnable(runner, step.toolchain, step.emulator) if models else None
    if reason is not None:
        print(f"{target}: {NOT_VERIFIED}: {reason}")
        results = {m.name: ModelResult(NOT_VERIFIED, reason) for m in models}
        models = []
    for model in models:
        if not model.outputs:
            results[model.name] = ModelResult(UNVERIFIED, "no reference outputs")
            continue
        output_dir = layout.paths().verify_dir(target, model.name)
        result = results[model.name] = run_model(
            runner, model, output_dir, step.emulator, step.environment
        )
        where = f"target {target}: model {model.name} ({model.path})"
        if result.status == FAILED:
            print(f"error: {where}: {result.detail}")
        elif result.status == DEGENERATE:
            print(f"warning: {where}: {DEGENERATE}, not counted as verified: {result.detail}")
    verification = Verification(results)
    write_if_changed(step.output, verification.to_json())
    return verification.passed


@reports_user_errors
def skip_library_only(step: VerifyStep) -> None:
    """verify.json for a target with no runner: every model "library only", none run."""
    detail = "runner = false: nothing runs the models"
    results = {m.name: ModelResult(LIBRARY_ONLY, detail) for m in step.models}
    write_if_changed(step.output, Verification(results).to_json())


def verify_task(plan: TargetPlan) -> dict[str, Any]:
    target = plan.target
    step = verify_step(plan.runtime, [plan.manifest.models[m] for m in target.models])
    names = [m.name for m in step.models]
    if step.runner is None:
        return {
            "basename": "verify",
            "name": step.target,
            "actions": [(skip_library_only, [step])],
            "file_dep": action_code(skip_library_only),
            "targets": [step.output],
            "uptodate": [config_changed({"library only": names})],
            "clean": True,
        }
    return {
        "basename": "verify",
        "name": step.target,
        "actions": [(verify, [step, step.runner])],
        "file_dep": [*step.inputs, *action_code(verify)],
        "task_dep": [f"link:{step.target}"],
        "targets": [step.output],
        "clean": [clean_targets, (remove_folder, [layout.verify_outputs(step.target)])],
        "uptodate": [
            config_changed(
                {
                    "methods": [[m.name, m.method] for m in step.models],
                    "emulator": list(step.emulator),
                    "output limits": [[m.name, m.output_limit] for m in step.models],
                    **plan.runtime.record(),
                }
            )
        ],
    }
