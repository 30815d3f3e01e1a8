"""`doit build`: everything, for every target of the manifest."""

from __future__ import annotations

from typing import Any

from selective_build.tasks.stages import final_stages


def task_build() -> dict[str, Any]:
    """Build, measure and verify every target (the default task)."""
    return {"actions": None, "task_dep": final_stages()}
