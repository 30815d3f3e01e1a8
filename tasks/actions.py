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

    Ctrl-C and SIGTERM are taken only while waiting for the command. Anywhere else (while
    it starts, while it is stopped, while its outputs are moved or removed) they wait until
    this returns: an interrupt inside Popen would leave a compiler running that nobody
    knows to stop, and one during the cleanup would leave a temporary behind.
    """
    for output in outputs:
        output.parent.mkdir(parents=True, exist_ok=True)
    with _interrupts(signal.SIG_BLOCK):
        try:
            return _run(command, outputs)
        finally:
            for output in outputs:
                temporary(output).unlink(missing_ok=True)


def _run(command: Sequence[str], outputs: Sequence[Path]) -> bool:
    try:
        # Its own session, so stopping it stops the compiler's children too (cc1plus would
        # otherwise go on writing after the temporaries were removed). It starts with the
        # interrupts blocked, as they are here: no terminal or doit signal reaches its own
        # session anyway, and stopping the build stops it with SIGKILL. (Unblocking them in
        # the child would need a preexec_fn, which can deadlock a forked child of doit's
        # threaded workers before it runs the compiler.)
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
    try:
        with _interrupts(signal.SIG_UNBLOCK):
            log, _ = process.communicate()
    finally:
        if process.returncode is None:  # interrupted
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


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _interrupts(how: int) -> Iterator[None]:
    """Block (SIG_BLOCK) or take (SIG_UNBLOCK) Ctrl-C and SIGTERM inside the block; one
    held back is raised when a block that blocked them ends."""
    previous = signal.pthread_sigmask(how, _INTERRUPTS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def temporary(output: Path) -> Path:
    """Where this process writes `output` first. The process id keeps a compiler left
    running by a killed build from writing into the next build's temporary."""
    return output.with_name(f"{output.name}.{os.getpid()}.tmp")
