"""Helpers for task actions: user errors as one line, and atomic subprocess outputs."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import ParamSpec

from codegen.errors import InputError

P = ParamSpec("P")


def reports_user_errors(action: Callable[P, object]) -> Callable[P, bool]:
    """Turn an `InputError` into one line on stderr and a failed task (no traceback)."""

    @functools.wraps(action)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> bool:
        try:
            result = action(*args, **kwargs)
        except InputError as error:
            print(f"error: {error}", file=sys.stderr)
            return False
        return result is not False

    return wrapper


def run_to_temporaries(command: Sequence[str], outputs: Sequence[Path]) -> bool:
    """Run `command`, which writes each output to `temporary(output)`, then move them into
    place: interrupting the build at any moment leaves the old output or the new one,
    never half a file.
    """
    for output in outputs:
        output.parent.mkdir(parents=True, exist_ok=True)
    process: subprocess.Popen[str] | None = None
    try:
        try:
            with _interrupts_held():
                process = _start(command)
            log, _ = process.communicate()
        except OSError as error:  # e.g. a compiler named in the manifest is not installed
            print(f"error: cannot run {command[0]!r}: {error.strerror}", file=sys.stderr)
            return False
        finally:
            if process is not None and process.returncode is None:  # interrupted
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process.returncode != 0:
            print(" ".join(command), file=sys.stderr)
            print(log, end="", file=sys.stderr)
            return False
        if log:
            print(log, end="", file=sys.stderr)
        for output in outputs:
            os.replace(temporary(output), output)
        return True
    finally:
        _remove_temporaries(outputs)


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while a compiler starts: an interrupt inside Popen
    would leave a compiler running that nobody knows to stop, writing a temporary after
    the cleanup. One that came meanwhile is raised on leaving, after `process` is set."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start(command: Sequence[str]) -> subprocess.Popen[str]:
    """`command` in its own session, so stopping it stops the compiler's children too
    (cc1plus would otherwise go on writing after the temporaries were removed), with the
    signal mask the build had before _interrupts_held."""
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, set()) - _INTERRUPTS
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, unblocked),
    )


def _remove_temporaries(outputs: Sequence[Path]) -> None:
    # A second signal (doit stopping its workers after Ctrl-C) must not cut this short.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for output in outputs:
            temporary(output).unlink(missing_ok=True)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def temporary(output: Path) -> Path:
    """Where this process writes `output` first. The process id keeps a compiler left
    running by a killed build from writing into the next build's temporary."""
    return output.with_name(f"{output.name}.{os.getpid()}.tmp")
