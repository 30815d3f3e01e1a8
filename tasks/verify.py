"""Stage 7: run every model of a target on its runner and compare with the references."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from doit.tools import config_changed

from codegen.manifest import Model, Target
from codegen.verify import compare_output
from codegen.writer import write_if_changed
from tasks import layout

RUN_TIMEOUT_SECONDS = 120


def run_model(runner: Path, model: Model, output_dir: Path) -> str | None:
    """None when the model ran and matched its references, else the failure (one line)."""
    shutil.rmtree(output_dir, ignore_errors=True)
    output_dir.mkdir(parents=True)
    command = [
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


def verify(target: str, models: list[Model], runner: Path) -> bool:
    results: dict[str, dict[str, str]] = {}
    for model in models:
        if not model.outputs:
            results[model.name] = {"status": "unverified", "detail": "no reference outputs"}
            continue
        problem = run_model(runner, model, layout.target_dir(target) / "verify" / model.name)
        results[model.name] = (
            {"status": "failed", "detail": problem} if problem else {"status": "ok"}
        )
        if problem:
            print(f"error: target {target}: model {model.name} ({model.path}): {problem}")
    write_if_changed(
        layout.verify_json(target), json.dumps({"models": results}, indent=2, sort_keys=True) + "\n"
    )
    return all(result["status"] != "failed" for result in results.values())


def verify_task(target: Target, models: list[Model]) -> dict[str, Any]:
    runner = layout.runner(target.name)
    references = [path for model in models for path in (model.path, *model.inputs, *model.outputs)]
    return {
        "basename": "verify",
        "name": target.name,
        "actions": [(verify, [target.name, models, runner])],
        "file_dep": [runner, *references, layout.codegen_dir() / "verify.py"],
        "task_dep": [f"link:{target.name}"],
        "targets": [layout.verify_json(target.name)],
        "uptodate": [config_changed({"methods": [[m.name, m.method] for m in models]})],
        "clean": True,
    }
