"""Each task's outputs checked against what it wrote (tasks/engine/outputs.py)."""

from __future__ import annotations

import os
from pathlib import Path

from doit.task import Task

from selective_build.tasks.engine.outputs import OutputsAsWritten
from selective_build.tasks.engine.run import Run
from tests.tasks.engine.conftest import Settle


def written(tmp_path: Path, run: Run) -> tuple[Task, OutputsAsWritten, dict[str, object]]:
    """A task that wrote its one output, and the values saved after it ran."""
    output = tmp_path / "runner"
    output.write_bytes(b"\x7fELF" + b"\0" * 60)
    task = Task("link:add_mul", [], targets=[str(output)])
    check = OutputsAsWritten()
    check.run = run
    assert not check(task, {})  # never ran: nothing says what it wrote
    values: dict[str, object] = {}
    for saver in task.value_savers:
        values.update(saver())
    return task, check, values


def test_outputs_as_written_are_up_to_date(tmp_path: Path, settle: Settle) -> None:
    task, check, values = written(tmp_path, Run(digests=tmp_path / "digests.json"))
    settle(tmp_path / "runner")
    assert check(task, values)


def test_a_missing_output_runs_the_task_again(tmp_path: Path) -> None:
    task, check, values = written(tmp_path, Run(digests=tmp_path / "digests.json"))
    (tmp_path / "runner").unlink()
    assert not check(task, values)


def test_an_output_changed_in_place_runs_the_task_again(tmp_path: Path) -> None:
    task, check, values = written(tmp_path, Run(digests=tmp_path / "digests.json"))
    output = tmp_path / "runner"
    before = output.stat()
    with output.open("r+b") as file:  # seven bytes, the size and mtime kept
        file.seek(8)
        file.write(b"\xff" * 7)
    os.utime(output, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert not check(task, values)


def test_an_output_touched_or_copied_unchanged_is_hashed_and_kept(tmp_path: Path) -> None:
    task, check, values = written(tmp_path, Run(digests=tmp_path / "digests.json"))
    output = tmp_path / "runner"
    copy = tmp_path / "copy"
    copy.write_bytes(output.read_bytes())
    os.replace(copy, output)  # another inode, the same bytes
    assert check(task, values)
