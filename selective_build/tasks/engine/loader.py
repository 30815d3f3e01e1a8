"""doit's task loader for a build (the `selective-build` command builds on it: tasks/command.py).

Note [One run, from the loader]
doit asks its task loader, in order, to set up from the command line's options, for the
configuration, and for the tasks of a command. This loader makes the run's state there
(tasks/engine/run.py) and wires it in:
  - setup: a new `Run`;
  - the configuration: the code and manifest the tasks are defined by are stamped, and the
    checker and reporter doit will make are bound to the run;
  - the tasks: a plain `doit build` asks the up-to-date stamp first (tasks/engine/stamp.py)
    and ends there when no stamped file moved, before any task module is imported (the
    build command turns that into doit's exit 0: tasks/engine/commands.py); otherwise the
    task creators are imported, those that read files are given the run's `Reads`, and
    doit's own loader makes the tasks.
Nothing of this happens at import, and nothing but a build takes the lock or writes into
build/: `doit list`, `help` and `info` only read.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from doit.cmd_base import DodoTaskLoader, TaskLoader2
from doit.loader import get_module, load_tasks

from selective_build.tasks import layout
from selective_build.tasks.engine import stamp
from selective_build.tasks.engine.checker import CachedMD5Checker
from selective_build.tasks.engine.commands import BuildCommand
from selective_build.tasks.engine.database import BACKEND
from selective_build.tasks.engine.lock import check_build_folder_owner
from selective_build.tasks.engine.outputs import OutputsAsWritten
from selective_build.tasks.engine.reporter import BuildReporter
from selective_build.tasks.engine.run import Request, Run

# The options a plain build may be given on the command line (`-n N`): any other makes it
# another command line, which the stamp neither answers nor records.
PLAIN_OPTIONS = frozenset({"num_process"})


def engine_config(run: Run) -> dict[str, Any]:
    """doit's configuration for `run`: the default task, the database in the build folder,
    and the checker and reporter bound to the run."""
    return {
        "default_tasks": ["build"],
        "backend": BACKEND,
        "dep_file": str(layout.dep_file()),
        "minversion": "0.37.0",
        "verbosity": 1,
        "reporter": BuildReporter.for_run(run),
        "check_file_uptodate": functools.partial(CachedMD5Checker, run),
    }


def for_run(namespace: Mapping[str, Any], run: Run) -> dict[str, Any]:
    """The task creators of `namespace` made for `run`: each one that takes a `reads` or a
    `request` parameter is given the run's (so a creator cannot read a file the stamp does
    not know of, Note [Up-to-date stamp], nor guess the command from sys.argv); every task
    with targets is checked for being what it wrote (tasks/engine/outputs.py); and for a
    command that runs no task (list, info, forget, clean), a delayed creator makes its
    tasks at once, as doit does only for a creator naming none it `creates` (else `doit
    info link:mlp` would not find the task). A wrapper keeps the creator's name, source
    line and doit attributes (`@create_after`, `@task_params`), which doit's loader reads."""
    bound = dict(namespace)
    for name, creator in namespace.items():
        if not (name.startswith("task_") and inspect.isfunction(creator)):
            continue
        parameters = inspect.signature(creator).parameters
        given = {key: getattr(run, key) for key in ("reads", "request") if key in parameters}
        delayed = getattr(creator, "doit_create_after", None)
        made_now = delayed is not None and delayed.creates and not run.request.runs_tasks
        bound[name] = _given(creator, given)
        if made_now:
            bound[name].doit_create_after = copy.copy(delayed)
            bound[name].doit_create_after.creates = []
    return bound


def _given(creator: Callable[..., Any], given: dict[str, Any]) -> Callable[..., Any]:
    @functools.wraps(creator)
    def for_this_run(**params: Any) -> Any:
        return _outputs_checked(creator(**given, **params))

    return for_this_run


def _outputs_checked(made: Any) -> Any:
    """A creator's task dict, or the generator of its task dicts, each task with targets
    given the check of its outputs."""
    if isinstance(made, dict):
        return _checked(made)
    if inspect.isgenerator(made):
        return (_checked(task) if isinstance(task, dict) else task for task in made)
    return made


def _checked(task: dict[str, Any]) -> dict[str, Any]:
    if not (task.get("targets") and task.get("actions")):
        return task
    return {**task, "uptodate": [*task.get("uptodate", ()), OutputsAsWritten()]}


class BuildLoader(TaskLoader2):  # type: ignore[misc]
    """Note [One run, from the loader]; the creators come from `creators()`."""

    program = "doit"  # what the user types to run it (Request.program)

    def __init__(self) -> None:
        super().__init__()
        self.options: Mapping[str, Any] = {}
        self.run = Run()

    def creators(self) -> Mapping[str, Any]:
        raise NotImplementedError

    def setup(self, opt_values: Mapping[str, Any]) -> None:
        self.options = opt_values
        self.run = Run()

    def load_doit_config(self) -> dict[str, Any]:
        # Every command (`list`, `info`, `clean`, a build) stops here in one line when the
        # build folder belongs to another manifest (Note [Build folder] in tasks/layout.py).
        check_build_folder_owner()
        stamp.stamp_definitions(self.run)
        return engine_config(self.run)

    def load_tasks(self, cmd: Any, pos_args: list[str]) -> list[Any]:
        self.run.request = Request(
            cmd.get_name(), tuple(pos_args), bool(cmd.execute_tasks), self.program
        )
        self.run.plain_build = isinstance(cmd, BuildCommand) and self.plain(pos_args)
        stamp.check(self.run)
        namespace = for_run(self.creators(), self.run)
        tasks: list[Any] = load_tasks(
            namespace,
            self.cmd_names,
            allow_delayed=cmd.execute_tasks,
            args=pos_args,
            config=self.config,
            task_opts=self.task_opts,
        )
        return tasks

    def plain(self, pos_args: list[str]) -> bool:
        """`[run] [build]... [-n N]`, as doit parsed it (`manifest=`, `build=` are doit's
        variables, not arguments). doit keeps the names of the options given on the command
        line in its parameters (as it does itself to tell a `-v` given from a default)."""
        given = set(getattr(self.options, "_non_default_keys", ()))
        return given <= PLAIN_OPTIONS and all(name == "build" for name in pos_args)


class DodoLoader(BuildLoader):
    """The loader of the `doit` command (pyproject.toml's `[tool.doit] loader`): the task
    creators of dodo.py, imported only once the run needs tasks. doit's own options to find
    it (`-f`, `-d`, `-k`) keep their meaning; given, dodo.py is imported at once, as doit's
    loader does (it may change the working folder), and the build is no plain one."""

    cmd_options = DodoTaskLoader.cmd_options

    def __init__(self) -> None:
        super().__init__()
        self._module: Mapping[str, Any] | None = None

    def setup(self, opt_values: Mapping[str, Any]) -> None:
        super().setup(opt_values)
        self._module = None
        if not self._default_dodo():
            self._module = self._import()

    def _default_dodo(self) -> bool:
        options = self.options
        return options.get("dodoFile", "dodo.py") == "dodo.py" and not (
            options.get("cwdPath") or options.get("seek_file")
        )

    def _import(self) -> Mapping[str, Any]:
        module = get_module(
            self.options.get("dodoFile", "dodo.py"),
            self.options.get("cwdPath"),
            self.options.get("seek_file", False),
        )
        return dict(inspect.getmembers(module))

    def creators(self) -> Mapping[str, Any]:
        if self._module is None:
            self._module = self._import()
        return self._module

    def plain(self, pos_args: list[str]) -> bool:
        return self._default_dodo() and super().plain(pos_args)
