"""doit's console output, with progress, and failures of our own actions in one line.

Executed tasks print as `.  [n/N] name`: n tasks dealt with so far (run or up to date) of
the N known, N growing once the per-target tasks are created after codegen. Tasks found up
to date print nothing one by one: a run that runs none says so in one line. A complete
run leaves the stamp that lets the next no-op end before loading any task (tasks/engine/stamp.py,
tasks/engine/recheck.py). Our actions report a user's mistake themselves (one line naming the file
and the fault) and then fail; doit's default reporter would add the action's repr and its
captured output.
Unexpected errors (a bug: a traceback) are still reported in full.

What a task prints goes through here too (Note [Task output]).
"""

from __future__ import annotations

import sys
import time
from typing import Any, cast

from doit.exceptions import BaseFail, TaskFailed, UnmetDependency
from doit.reporter import ConsoleReporter

from selective_build.tasks.engine import recheck, stamp
from selective_build.tasks.engine.run import Run

# Note [Task output]
# ~~~~~~~~~~~~~~~~~~
# With `-n N`, tasks run in worker processes while this reporter writes in the main one;
# a worker printing straight to the console interleaves with the progress lines, even in
# the middle of a line (CI saw `...verified.  [50/53] summary:on_host`). So tasks leave
# stdout captured (verbosity 1) and the reporter writes what a task printed, in one piece,
# once it is done: after its own progress line, whole. Every write is flushed at once, so
# a worker's stderr line (a compiler error, a one-line fault) cannot land inside one of
# ours either. Output a task showed live is not written twice: doit has set each task's
# verbosity to the effective one (`-v N` wins) before it runs.


class BuildReporter(ConsoleReporter):  # type: ignore[misc]
    desc = "console output with [n/N] progress; failures of build actions in one line"
    run: Run  # the run it reports: set on the class doit is given (`for_run`)

    @classmethod
    def for_run(cls, run: Run) -> type[BuildReporter]:
        """doit makes its reporter from a class, with the output stream and options of the
        command line: this class, bound to `run`."""
        return cast(type[BuildReporter], type(cls.__name__, (cls,), {"run": run}))

    def initialize(self, tasks: dict[str, Any], selected_tasks: list[str]) -> None:
        # doit adds the tasks it creates later to this same dict.
        self.tasks = tasks
        self.selected = selected_tasks
        self.executed: set[str] = set()
        self.up_to_date: set[str] = set()
        self.succeeded: set[str] = set()
        self.ignored = 0
        self.started = time.monotonic()
        # Not run because a task they need failed or was not run (`--continue`): each with
        # the tasks it needed, as doit names them.
        self.unmet: dict[str, list[str]] = {}
        # A run starts (doit makes no reporter for list, info, help): one run at a time per
        # build folder (tasks/engine/lock.py), and SIGTERM saves what finished, as Ctrl-C does
        # (tasks/engine/signals.py). Last: a stop while it waits still ends through
        # complete_run, which needs the above.
        self.run.lock.hold()

    def write(self, text: str) -> None:
        self.outstream.write(text)
        self.outstream.flush()

    def _needed(self) -> list[str]:
        """The tasks with actions that the selected ones need, as far as known yet."""
        seen: set[str] = set()
        pending = list(self.selected)
        while pending:
            name = pending.pop()
            if name in seen or name not in self.tasks:
                continue
            seen.add(name)
            pending += self.tasks[name].task_dep
        return sorted(name for name in seen if self.tasks[name].actions)

    def execute_task(self, task: Any) -> None:
        if task.actions:
            self.executed.add(task.name)
            if not task.name.startswith("_"):
                done = self.executed | self.up_to_date
                # Tasks outside the selection may run too: `codegen` of every target runs
                # before the per-target tasks can be created.
                total = len(done.union(self._needed()))
                self.write(f".  [{len(done)}/{total}] {task.title()}\n")

    def skip_uptodate(self, task: Any) -> None:
        if task.actions:
            self.up_to_date.add(task.name)

    def skip_ignore(self, task: Any) -> None:
        self.ignored += 1
        super().skip_ignore(task)

    def complete_run(self) -> None:
        # doit calls this also when the run ends by an exception on its way out (a one-line
        # stop, an interrupt): nothing is then said to be up to date, nor stamped.
        ending = sys.exc_info()[1] is not None
        super().complete_run()
        try:
            self._write_skipped()
            if self.executed and not ending:
                self._overall()
            if not ending:
                self._stamp()
        finally:
            self.run.finish()

    def _write_skipped(self) -> None:
        """One line for the tasks `--continue` did not run (doit would write a paragraph
        per task: `UnmetDependency - taskid:...`), naming the failures they wait on."""
        skipped = [name for name in self.unmet if self.tasks[name].actions]
        if not skipped:
            return
        causes: list[str] = []
        seen: set[str] = set()
        pending = [need for name in skipped for need in self.unmet[name]]
        while pending:
            need = pending.pop(0)
            if need in seen:
                continue
            seen.add(need)
            if need in self.unmet:  # a group task, or one skipped in turn
                pending += self.unmet[need]
            else:
                causes.append(need)
        they = "it needs" if len(skipped) == 1 else "they need"
        self.write(f"skipped {', '.join(skipped)}: {they} {', '.join(causes)}, which failed\n")

    def _overall(self) -> None:
        """One line for the targets this run built: how many are done, which are not, and
        the time it took. A target is done when its summary ran or was up to date."""
        targets = [n.partition(":")[2] for n in self._needed() if n.startswith("summary:")]
        if not targets:
            return
        done = self.succeeded | self.up_to_date
        failed = [t for t in targets if f"summary:{t}" not in done]
        count = f"{len(targets) - len(failed)} of {len(targets)}" if failed else len(targets)
        line = f"build: {count} target{'s' if len(targets) > 1 else ''} ok"
        if failed:
            line += f", failed or not built: {', '.join(failed)}"
        self.write(f"{line} ({_duration(time.monotonic() - self.started)})\n")

    def _stamp(self) -> None:
        """Leave the stamp of a complete run (Note [Up-to-date stamp])."""
        needed = self._needed()
        if self.failures or self.runtime_errors or self.ignored:
            return
        if not self.executed and self.up_to_date.issuperset(needed):
            self.write(stamp.verdict(len(self.up_to_date), shortcut=False))
            stamp.record(self.run, len(self.up_to_date))
        elif (self.executed | self.up_to_date).issuperset(needed) and self.run.plain_build:
            recheck.record_if_up_to_date(self.run, self.tasks, needed)

    def add_success(self, task: Any) -> None:
        self.succeeded.add(task.name)
        self._write_captured(task)

    def add_failure(self, task: Any, fail: BaseFail) -> None:
        if isinstance(fail, UnmetDependency):
            self.failures.append({"task": task, "exception": fail})
            self.unmet[task.name] = fail.message.split()
            return
        if isinstance(fail, TaskFailed):
            self._write_captured(task)
            self.write(f"failed: {task.name}\n")
        else:
            super().add_failure(task, fail)  # doit shows the captured output with it

    def _write_captured(self, task: Any) -> None:
        """What the task printed and nobody saw yet (Note [Task output])."""
        streams = {0: ["out", "err"], 1: ["out"]}.get(task.verbosity, [])
        for stream in streams:
            text = "".join(getattr(action, stream) or "" for action in task.actions)
            if text:
                self.write(text if text.endswith("\n") else text + "\n")


def _duration(seconds: float) -> str:
    """`4.2 s`, `3 min 05 s`."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s"
