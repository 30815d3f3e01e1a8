"""The engine's task loader: each run has its own state, task creators read through the
run's `Reads` (so what they read is stamped), and a plain build is told from doit's parsed
command line, not from sys.argv (Note [One run, from the loader])."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from doit import create_after
from doit.cmd_run import Run as DoitRun
from doit.cmdparse import DefaultUpdate

from selective_build.tasks.engine.commands import BuildCommand
from selective_build.tasks.engine.evidence import Reads, stamp_of
from selective_build.tasks.engine.loader import BuildLoader
from selective_build.tasks.engine.run import Request


class Command:
    """What the loader asks of doit's command: its name and whether it runs tasks."""

    def __init__(self, name: str = "list") -> None:
        self.name = name
        self.execute_tasks = False

    def get_name(self) -> str:
        return self.name


class NamespaceLoader(BuildLoader):
    def __init__(self, namespace: Mapping[str, Any]) -> None:
        super().__init__()
        self.namespace = namespace

    def creators(self) -> Mapping[str, Any]:
        return self.namespace


def creators_reading(path: Path) -> dict[str, Any]:
    def task_reads(reads: Reads) -> dict[str, Any]:
        """Made from a file it reads."""
        text = reads.text(path)
        return {"actions": None, "doc": text}

    @create_after(executed="reads")  # type: ignore[untyped-decorator]
    def task_later(reads: Reads) -> Iterator[dict[str, Any]]:
        yield {"basename": "later", "actions": None, "doc": str(reads.exists(path))}

    def task_plain() -> dict[str, Any]:
        return {"actions": None}

    return {"task_reads": task_reads, "task_later": task_later, "task_plain": task_plain}


def test_a_creators_read_is_recorded_in_its_runs_definitions(tmp_path: Path) -> None:
    read = tmp_path / "resolution.json"
    read.write_text('{"sources": []}')
    loader = NamespaceLoader(creators_reading(read))
    loader.setup(DefaultUpdate())
    tasks = {task.name: task for task in loader.load_tasks(Command(), [])}
    assert tasks["reads"].doc == '{"sources": []}'
    assert tasks["later"].doc == "True"  # a delayed creator, made at once for `list`
    assert loader.run.definitions.stamps == {str(read): stamp_of(read.stat())}


def test_every_run_starts_with_nothing_recorded(tmp_path: Path) -> None:
    read = tmp_path / "header.h"
    read.write_text("")
    loader = NamespaceLoader(creators_reading(read))
    loader.setup(DefaultUpdate())
    first = loader.run
    loader.load_tasks(Command(), [])
    loader.setup(DefaultUpdate())
    assert loader.run is not first and loader.run.definitions.stamps == {}
    assert str(read) in first.definitions.stamps


def test_delayed_creators_stay_delayed_for_a_run(tmp_path: Path) -> None:
    loader = NamespaceLoader(creators_reading(tmp_path / "absent"))
    loader.setup(DefaultUpdate())
    command = Command("run")
    command.execute_tasks = True
    tasks = {task.name: task for task in loader.load_tasks(command, [])}
    assert tasks["later"].loader is not None  # made once `reads` has run
    assert loader.run.definitions.stamps == {str(tmp_path / "absent"): None}


def given(**options: object) -> DefaultUpdate:
    """doit's parameters with `options` given on the command line."""
    parameters = DefaultUpdate(num_process=0, always_execute=False)
    for name, value in options.items():
        parameters[name] = value
    return parameters


@pytest.mark.parametrize(
    ("options", "names"),
    [({}, []), ({}, ["build"]), ({"num_process": 4}, ["build"]), ({"num_process": 2}, [])],
)
def test_plain_builds(options: dict[str, object], names: list[str]) -> None:
    loader = NamespaceLoader({})
    loader.setup(given(**options))
    assert loader.plain(names)


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"always_execute": True}, ["build"]),
        ({}, ["build", "target:mlp"]),
        ({"dep_file": "x"}, ["build"]),
        ({}, ["summary:mlp"]),
    ],
)
def test_other_command_lines(options: dict[str, object], names: list[str]) -> None:
    loader = NamespaceLoader({})
    loader.setup(given(**options))
    assert not loader.plain(names)


def test_only_the_build_command_is_a_plain_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no stamp there: the loader goes on to the creators
    loader = NamespaceLoader({})
    loader.setup(given())
    loader.load_tasks(DoitRun(task_loader=loader), ["build"])  # doit's own `run`: not ours
    assert not loader.run.plain_build
    loader.load_tasks(BuildCommand(task_loader=loader), ["build"])
    assert loader.run.plain_build


def creators_asking() -> dict[str, Any]:
    @create_after(executed="codegen", creates=["link"])  # type: ignore[untyped-decorator]
    def task_backend(request: Request) -> Iterator[dict[str, Any]]:
        yield {"basename": "link", "name": "mlp", "actions": None, "doc": repr(request)}

    return {"task_backend": task_backend}


def test_a_command_that_runs_no_task_makes_delayed_tasks_at_once() -> None:
    namespace = creators_asking()
    loader = NamespaceLoader(namespace)
    loader.setup(DefaultUpdate())
    tasks = {task.name: task for task in loader.load_tasks(Command("info"), ["link:mlp"])}
    assert tasks["link:mlp"].doc == repr(Request("info", ("link:mlp",), runs_tasks=False))
    assert namespace["task_backend"].doit_create_after.creates == ["link"]  # left as it was


def test_a_command_that_runs_tasks_keeps_them_delayed() -> None:
    loader = NamespaceLoader(creators_asking())
    loader.setup(DefaultUpdate())
    command = Command("run")
    command.execute_tasks = True
    tasks = {task.name: task for task in loader.load_tasks(command, ["build"])}
    assert "link:mlp" not in tasks and tasks["link"].loader is not None


def test_every_task_that_writes_files_has_its_outputs_checked(tmp_path: Path) -> None:
    """tasks/engine/outputs.py: given by the loader, so no stage can forget it."""

    def task_one() -> dict[str, Any]:
        return {"actions": ["true"], "targets": [str(tmp_path / "a")], "uptodate": [True]}

    def task_many() -> Iterator[dict[str, Any]]:
        yield {"name": "x", "actions": ["true"], "targets": [str(tmp_path / "b")]}
        yield {"name": "y", "actions": ["true"]}  # writes nothing of its own

    loader = NamespaceLoader({"task_one": task_one, "task_many": task_many})
    loader.setup(DefaultUpdate())
    tasks = {task.name: task for task in loader.load_tasks(Command(), [])}
    checked = {
        name: [type(item).__name__ for item, _, _ in task.uptodate] for name, task in tasks.items()
    }
    assert checked["one"] == ["bool", "OutputsAsWritten"]
    assert checked["many:x"] == ["OutputsAsWritten"]
    assert checked["many:y"] == []
