"""The build's console output: what a task printed comes out whole, after its progress
line, written by the reporter (Note [Task output]); never twice, never lost."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from doit.exceptions import TaskFailed, UnmetDependency
from doit.task import Stream, Task

from selective_build.tasks.engine.reporter import BuildReporter
from selective_build.tasks.engine.run import Run


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run takes its build folder's lock: that of a scratch folder here."""
    monkeypatch.chdir(tmp_path)


def _report() -> None:
    print("first line of the report")
    print("  second line")


def _run(task: Task, stream: Stream) -> str:
    """The reporter's output for one task run as doit's runner runs it."""
    task.overwrite_verbosity(stream)
    out = io.StringIO()
    run = Run()
    reporter = BuildReporter.for_run(run)(out, {})
    reporter.initialize({task.name: task}, [task.name])
    assert run.lock.held
    run.lock.release()
    reporter.execute_task(task)
    failure = task.execute(stream)
    if failure is None:
        reporter.add_success(task)
    else:
        reporter.add_failure(task, failure)
    return out.getvalue()


def test_captured_output_follows_the_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    task = Task("size:add_mul", [(_report,)])
    written = _run(task, Stream(None))
    assert written == ".  [1/1] size:add_mul\nfirst line of the report\n  second line\n"
    assert capsys.readouterr().out == ""  # nothing went to the console behind its back


def test_a_failed_task_shows_what_it_printed_before_the_failure() -> None:
    def breach() -> bool:
        print("error: target add_mul: runner is over its budget")
        return False

    written = _run(Task("size:add_mul", [(breach,)]), Stream(None))
    assert written.splitlines() == [
        ".  [1/1] size:add_mul",
        "error: target add_mul: runner is over its budget",
        "failed: size:add_mul",
    ]


def test_output_shown_live_is_not_written_again(capsys: pytest.CaptureFixture[str]) -> None:
    task = Task("summary:mlp", [(_report,)])
    written = _run(task, Stream(2, force_global=True))
    assert written == ".  [1/1] summary:mlp\n"
    assert "first line of the report" in capsys.readouterr().out


def test_verbosity_zero_keeps_stderr_until_the_task_is_done() -> None:
    def warn() -> None:
        print("warning: something", file=sys.stderr)

    task = Task("compile:x", [(warn,)])
    written = _run(task, Stream(0, force_global=True))
    assert written == ".  [1/1] compile:x\nwarning: something\n"


def _reporter(tasks: list[Task], selected: list[str]) -> tuple[BuildReporter, io.StringIO]:
    out = io.StringIO()
    reporter = BuildReporter.for_run(Run())(out, {})
    reporter.initialize({task.name: task for task in tasks}, selected)
    return reporter, out


def test_tasks_continue_skipped_are_one_line_naming_the_failure() -> None:
    """`--continue`: doit's reporter wrote `UnmetDependency - taskid:...` for each."""
    size = Task("size:add_mul", [(_report,)])
    summary = Task("summary:add_mul", [(_report,)], task_dep=["size:add_mul"])
    group = Task("summary", None, task_dep=["summary:add_mul"])
    build = Task("build", None, task_dep=["summary"])
    reporter, out = _reporter([size, summary, group, build], ["build"])
    reporter.add_failure(size, TaskFailed("over budget"))
    reporter.add_failure(summary, UnmetDependency("size:add_mul"))
    reporter.add_failure(group, UnmetDependency("summary:add_mul"))
    reporter.add_failure(build, UnmetDependency("summary"))
    reporter.complete_run()
    assert out.getvalue().splitlines() == [
        "failed: size:add_mul",
        "skipped summary:add_mul: it needs size:add_mul, which failed",
    ]


def test_a_run_ending_by_an_exception_is_not_called_up_to_date() -> None:
    """A task creator that stops in one line (a damaged resolution.json) ends the run by
    SystemExit; the tasks checked before were up to date, yet nothing is (the reporter said
    "nothing to do" after the error, and left a stamp)."""
    codegen = Task("codegen:add_mul", [(_report,)])
    reporter, out = _reporter([codegen], ["codegen:add_mul"])
    reporter.skip_uptodate(codegen)
    with pytest.raises(SystemExit):
        try:
            raise SystemExit(2)
        finally:
            reporter.complete_run()
    assert out.getvalue() == ""
