"""The task creators of the `doit` command (tasks/creators.py).

doit takes them through the engine's task loader, which pyproject.toml names (`[tool.doit]
loader`): it imports this file only once the run needs its tasks, so a no-op `doit build`
ends before any task module is imported (Note [One run, from the loader] in
tasks/engine/loader.py), and it gives doit the configuration. Importing this file has no
effect: the lock, the signal handlers and build/ come with a run that builds.
"""

from tasks.creators import (
    task_backend,
    task_build,
    task_codegen,
    task_explain,
    task_model_ops,
    task_selection,
)

__all__ = [
    "task_backend",
    "task_build",
    "task_codegen",
    "task_explain",
    "task_model_ops",
    "task_selection",
]
