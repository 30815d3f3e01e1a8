"""Stage 7: the verify step (codegen/plan/verify.py) as a task: run every model of a target
on its runner and compare with the references.

A runner built for another processor runs through its toolchain's emulator; with none,
the target is "not verified" (one line, and its summary says so), never an exec error."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.machine import elf_machine, runs_here
from codegen.manifest import Model, Target, Toolchain
from codegen.plan.verify import VerifyStep, verify_step
from codegen.references import with_npy_files
from codegen.verification import (
    FAILED,
    LIBRARY_ONLY,
    NOT_VERIFIED,
    OK,
    UNVERIFIED,
    ModelResult,
    Verification,
)
from codegen.verify import compare_output, runner_npy_problem
from codegen.writer import write_if_changed
from tasks import layout
from tasks.code_deps import action_code
from tasks.engine.actions import reports_user_errors

RUN_TIMEOUT_SECONDS = 120


def run_model(
    runner: Path, model: Model, output_dir: Path, emulator: tuple[str, ...] = ()
) -> str | None:
    """None when the model ran and matched its references, else the failure (one line)."""
    # Note [Reference archives]: the runner reads .npy files.
    model = with_npy_files(model, output_dir.with_name(f"{output_dir.name}.references"))
    for kind, paths in (("input", model.inputs), ("reference", model.outputs)):
        for path in paths:
            problem = runner_npy_problem(path)
            if problem:
                return f"{kind} {path}: {problem}"
    shutil.rmtree(output_dir, ignore_errors=True)
    output_dir.mkdir(parents=True)
    command = [
        *emulator,
        str(runner),
        str(model.path),
        "--method",
        model.method,
        "--output-dir",
        str(output_dir),
    ]
    for path in model.inputs:
        command += ["--input", str(path)]
    try:
        completed = subprocess.run(
            command, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        return f"runner did not finish within {RUN_TIMEOUT_SECONDS} s"
    except OSError as error:  # a missing emulator, or a runner this machine cannot run
        return f"cannot run {command[0]}: {error.strerror}"
    if completed.returncode < 0:
        return f"runner crashed with signal {-completed.returncode}"
    if completed.returncode != 0:
        return (
            completed.stderr.strip().splitlines()[-1]
            if completed.stderr.strip()
            else (f"runner exited with {completed.returncode}")
        )
    for index, expected in enumerate(model.outputs):
        problem = compare_output(expected, output_dir / f"output{index}.npy")
        if problem:
            return problem
    extra = output_dir / f"output{len(model.outputs)}.npy"
    if extra.exists():
        return f"the runner wrote more outputs than the {len(model.outputs)} references"
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
        output_dir = layout.target_dir(target) / "verify" / model.name
        problem = run_model(runner, model, output_dir, step.emulator)
        results[model.name] = ModelResult(FAILED, problem) if problem else ModelResult(OK)
        if problem:
            print(f"error: target {target}: model {model.name} ({model.path}): {problem}")
    verification = Verification(results)
    write_if_changed(step.output, verification.to_json())
    return verification.passed


def skip_library_only(step: VerifyStep) -> None:
    """verify.json for a target with no runner: every model "library only", none run."""
    detail = "runner = false: nothing runs the models"
    results = {m.name: ModelResult(LIBRARY_ONLY, detail) for m in step.models}
    write_if_changed(step.output, Verification(results).to_json())


def verify_task(target: Target, toolchain: Toolchain, models: list[Model]) -> dict[str, Any]:
    step = verify_step(layout.paths(), target, toolchain, models)
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
        "uptodate": [
            config_changed(
                {
                    "methods": [[m.name, m.method] for m in step.models],
                    "emulator": list(step.emulator),
                }
            )
        ],
        "clean": True,
    }
