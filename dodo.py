"""The task creators of the `doit` command (tasks/creators.py, from the table of stages in
tasks/stages.py).

doit takes them through the engine's task loader, which pyproject.toml names (`[tool.doit]
loader`): it imports this file only once the run needs its tasks, so a no-op `doit build`
ends before any task module is imported (Note [One run, from the loader] in
tasks/engine/loader.py), and it gives doit the configuration. Importing this file has no
effect: the lock, the signal handlers and build/ come with a run that builds.
"""

from selective_build.tasks.creators import CREATORS

globals().update(CREATORS)
