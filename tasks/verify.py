"""Stage 7: run every model of a target on its runner and compare with the references.

A runner built for another processor runs through its toolchain's emulator; with none,
the target is "not verified" (one line, and its summary says so), never an exec error."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.machine import elf_machine, runs_here
from codegen.manifest import Model, Target, Toolchain
from codegen.verify import compare_output, runner_npy_problem
from codegen.writer import write_if_changed
from tasks import layout
from tasks.actions import reports_user_errors
from tasks.code_deps import code_closure

RUN_TIMEOUT_SECONDS = 120


NOT_VERIFIED = "not verified"
# A library-only target's models only select its operators: there is no runner to run them.
LIBRARY_ONLY = "library only"


def run_model(
    runner: Path, model: Model, output_dir: Path, emulator: tuple[str, ...] = ()
) -> str | None:
    """None when the model ran and matched its references, else the failure (one line)."""
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


def not_runnable(runner: Path, toolchain: Toolchain) -> str | None:
    """Why the runner cannot be run here, or None."""
    if toolchain.emulator:
        return None
    machine = elf_machine(runner)
    if runs_here(machine):
        return None
    return f"runner is {machine}, no emulator for toolchain {toolchain.name}"


@reports_user_errors
def verify(target: str, models: list[Model], runner: Path, toolchain: Toolchain) -> bool:
    results: dict[str, dict[str, str]] = {}
    reason = not_runnable(runner, toolchain) if models else None
    if reason is not None:
        print(f"{target}: {NOT_VERIFIED}: {reason}")
        results = {m.name: {"status": NOT_VERIFIED, "detail": reason} for m in models}
        models = []
    for model in models:
        if not model.outputs:
            results[model.name] = {"status": "unverified", "detail": "no reference outputs"}
            continue
        output_dir = layout.target_dir(target) / "verify" / model.name
        problem = run_model(runner, model, output_dir, toolchain.emulator)
        results[model.name] = (
            {"status": "failed", "detail": problem} if problem else {"status": "ok"}
        )
        if problem:
            print(f"error: target {target}: model {model.name} ({model.path}): {problem}")
    write_if_changed(
        layout.verify_json(target), json.dumps({"models": results}, indent=2, sort_keys=True) + "\n"
    )
    return all(result["status"] != "failed" for result in results.values())


def skip_library_only(target: str, models: list[str]) -> None:
    """verify.json for a target with no runner: every model "library only", none run."""
    detail = "runner = false: nothing runs the models"
    results = {model: {"status": LIBRARY_ONLY, "detail": detail} for model in models}
    write_if_changed(
        layout.verify_json(target), json.dumps({"models": results}, indent=2, sort_keys=True) + "\n"
    )


def verify_task(target: Target, toolchain: Toolchain, models: list[Model]) -> dict[str, Any]:
    if not target.runner:
        return {
            "basename": "verify",
            "name": target.name,
            "actions": [(skip_library_only, [target.name, [m.name for m in models]])],
            "file_dep": code_closure(__name__),
            "targets": [layout.verify_json(target.name)],
            "uptodate": [config_changed({"library only": [m.name for m in models]})],
            "clean": True,
        }
    runner = layout.runner(target.name)
    references = [path for model in models for path in (model.path, *model.inputs, *model.outputs)]
    return {
        "basename": "verify",
        "name": target.name,
        "actions": [(verify, [target.name, models, runner, toolchain])],
        "file_dep": [
            runner,
            *references,
            *code_closure(__name__),
        ],
        "task_dep": [f"link:{target.name}"],
        "targets": [layout.verify_json(target.name)],
        "uptodate": [
            config_changed(
                {
                    "methods": [[m.name, m.method] for m in models],
                    "emulator": list(toolchain.emulator),
                }
            )
        ],
        "clean": True,
    }
