"""Helpers for task actions: user errors and refused writes as one line, and atomic
subprocess outputs."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import ParamSpec

from selective_build.codegen import writer
from selective_build.codegen.errors import InputError
from selective_build.tasks.engine import storage
from selective_build.tasks.engine.signals import stop_signals_held

P = ParamSpec("P")


def reports_user_errors(action: Callable[P, object]) -> Callable[P, bool]:
    """Turn an `InputError`, or a write the full or read-only build folder refused (Note
    [Unwritable build folder] in tasks/engine/storage.py), into one line on stderr and a
    failed task (no traceback)."""

    @functools.wraps(action)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> bool:
        try:
            result = action(*args, **kwargs)
        except InputError as error:
            print(f"error: {error}", file=sys.stderr)
            return False
        except OSError as error:
            return _refused_write(error)
        return result is not False

    return wrapper


def _refused_write(error: OSError) -> bool:
    """False, once the one line for a write the build folder refused is printed (Note
    [Unwritable build folder] in tasks/engine/storage.py); any other error goes on."""
    line = storage.problem(error)
    if line is None:
        raise error
    print(line, file=sys.stderr)
    return False


def remove_folder(folder: Path, dryrun: bool) -> None:
    """A stage's `clean` action: remove `folder`, which holds only what the stage writes
    besides its targets (Note [Clean] in tasks/engine/clean.py)."""
    if folder.is_dir():
        print(f"removing folder '{folder}'")
        if not dryrun:
            shutil.rmtree(folder)


def run_to_temporaries(command: Sequence[str], outputs: Sequence[Path]) -> bool:
    """Run `command`, which writes each output to `temporary(output)`, then move them into
    place: interrupting the build at any moment leaves the old output or the new one,
    never half a file, and no compiler running (Note [Interrupted commands])."""
    running: list[subprocess.Popen[str]] = []
    with _interrupts_held(lambda: _stop(running)) as received:
        try:
            for output in outputs:
                output.parent.mkdir(parents=True, exist_ok=True)
            return _run(command, outputs, running, received)
        except OSError as error:
            return _refused_write(error)
        finally:
            for output in outputs:
                temporary(output).unlink(missing_ok=True)


# Note [Interrupted commands]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Ctrl-C, SIGTERM and SIGHUP reach a build as KeyboardInterrupt (Note [Stop signals] in
# tasks/engine/signals.py), which Python raises in the main thread at whatever line it is
# running. Raised inside Popen it would leave a compiler
# running that nobody knows to stop; raised while the temporaries are removed, one would
# stay behind (CI saw both). Blocking the signals in this thread is not enough: a doit
# worker has other threads (its result queue's feeder), the kernel hands them the signal,
# and Python still raises it here. So while a command runs, the stop-signal handler of
# tasks/engine/signals.py only stops it (SIGKILL to its own session, so cc1plus and as stop too)
# and notes the signal; once its outputs are moved or removed, the interrupt is raised,
# naming the first signal received. The handler stays in place all along (the hold is a
# state of the handler, not a handler swapped in and out), so no signal can land between
# two handlers and be taken for the first.
#
# A signal the process ignores (Ctrl-C in a background job, which is how CI may start a
# build) is never handled, so never held: stopping the command for it would end in an
# interrupt nobody raises (the build went on as if the command had failed, silently; CI
# saw it). A process that has not installed the stop-signal handlers (a build always
# has: tasks/engine/reporter.py) holds nothing.
#
# The command runs in its own session so that stopping it stops its children, and a
# terminal's Ctrl-C reaches only doit, which stops it. Python runs signal handlers in the
# main thread only: under doit's thread runner (`-P thread`) nothing interrupts a worker
# thread, and compiles left running finish on their own.


def _run(
    command: Sequence[str],
    outputs: Sequence[Path],
    running: list[subprocess.Popen[str]],
    received: list[int],
) -> bool:
    try:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
    except OSError as error:  # e.g. a compiler named in the manifest is not installed
        print(f"error: cannot run {command[0]!r}: {error.strerror}", file=sys.stderr)
        return False
    running.append(process)
    if received:  # interrupted while it started
        _stop(running)
    log = _communicate(process)
    if received:
        _wait_for_session_end(process.pid)
        return False
    if process.returncode != 0:
        refused = storage.full_device_line(log, outputs[0])
        if refused is not None:  # not the compiler's fault: one line (storage.py)
            print(refused, file=sys.stderr)
            return False
        print(" ".join(command), file=sys.stderr)
        print(log, end="", file=sys.stderr)
        return False
    if log:
        print(log, end="", file=sys.stderr)
    for output in outputs:
        os.replace(temporary(output), output)
    return True


def _communicate(process: subprocess.Popen[str]) -> str:
    """Its output, once it has ended. Waits in short steps: a signal the kernel handed to
    another thread does not wake this one, and Python runs the handler (which stops the
    command) only when this thread runs Python again."""
    while True:
        try:
            return process.communicate(timeout=0.05)[0]
        except subprocess.TimeoutExpired:
            pass


def _stop(running: list[subprocess.Popen[str]]) -> None:
    for process in running:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def _wait_for_session_end(session: int, timeout: float = 2.0) -> None:
    """Until every process of the killed command's session is gone: one killed inside a
    system call (cc1plus opening a temporary) finishes that call first. Bounded, as a
    zombie nobody reaps would count as alive."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(session, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)


@contextlib.contextmanager
def _interrupts_held(stop: Callable[[], None]) -> Iterator[list[int]]:
    """Inside the block, the stop signals call `stop` and are noted in the list it
    yields; the interrupt is raised when the block ends (Note [Interrupted commands])."""
    if threading.current_thread() is not threading.main_thread():
        yield []  # handlers run in the main thread only: none can reach this one
        return
    with stop_signals_held(stop) as received:
        yield received


def temporary(output: Path) -> Path:
    """Where this process's command writes `output` first (Note [Temporaries] in
    codegen/writer.py)."""
    return writer.temporary(output)
