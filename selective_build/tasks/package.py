"""`package:<target>`: the package step (codegen/plan/package.py) as a task: copy the
runtime's headers, the target's generated headers and its static library into
build/<target>/package/, and write its CMake and pkg-config files."""

from __future__ import annotations

import functools
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from doit.tools import config_changed

from selective_build.codegen.plan.package import PackageStep
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import reports_user_errors
from selective_build.tasks.target import TargetPlan


@functools.cache
def package_version() -> str:
    try:
        return version("selective-build")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "0.0.0"


@reports_user_errors
def write_package(step: PackageStep) -> None:
    for path, source in step.copies:
        write_if_changed(step.folder / path, source.read_bytes())
    for path, text in step.written:
        write_if_changed(step.folder / path, text)
    # A header removed from the runtime leaves the package too.
    written = set(step.outputs)
    for stale in [p for p in step.folder.rglob("*") if p.is_file() and p not in written]:
        stale.unlink()


def package_task(plan: TargetPlan) -> dict[str, Any]:
    target = plan.target
    step = plan.runtime.package(package_version())
    return {
        "basename": "package",
        "name": target.name,
        "actions": [(write_package, [step])],
        "file_dep": [*step.inputs, *action_code(write_package)],
        # Tasks created after codegen see no implicit dependencies (doit notes, 2.2).
        "task_dep": [f"link:{target.name}"],
        "targets": step.outputs,
        "uptodate": [
            config_changed(
                {"target": target.name, "version": step.info.version, **plan.runtime.record()}
            )
        ],
        "clean": True,
    }
