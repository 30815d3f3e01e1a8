"""SIGTERM and SIGHUP handled like Ctrl-C, and an interrupted build ending in one line.

doit writes its dependency database once, when the run ends: a run killed by SIGTERM
would save nothing of what it finished (doit notes, P8).

The state here is the process's, not one run's: a signal handler and the excepthook are
process-wide, and so is the record of the signals received (Note [Stop signals]).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from types import TracebackType

# Ctrl-C, `kill PID`, and the terminal closing (Note [Stop signals]).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_received: list[int] = []  # the stop signals this process has received, in order
_raised: list[bool] = []  # whether the one KeyboardInterrupt has been raised
_holders: list[Callable[[], None]] = []  # while a command runs: what stops it
_AFTER = "finished tasks are saved, the next build goes on"
WORKERS_GRACE = 5.0  # seconds an interrupted build waits for its workers (Note [Workers end])

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]
_other_hooks: list[ExceptHook] = []  # the excepthook for every other exception


# Note [Stop signals]
# ~~~~~~~~~~~~~~~~~~~
# Each stop signal raises KeyboardInterrupt, which doit lets through its runner's `finally`:
# the tasks that finished are saved (by default SIGTERM and SIGHUP kill Python at once and
# nothing is). Commands running then are stopped and their temporaries removed (Note
# [Interrupted commands] in tasks/engine/actions.py); outputs are written atomically; so the next
# build goes on from what is saved. Nobody catches the KeyboardInterrupt after that, and
# Python would print its traceback: the interrupt is a user's decision, not a fault, so it
# ends in one line, and the process then ends by the signal it received (a shell or a CI
# runner sees what happened: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
# A signal the process ignores stays ignored: Ctrl-C in a background job, a hangup under
# `nohup`.

# Note [Workers end]
# ~~~~~~~~~~~~~~~~~~
# An interrupted build ends once its doit workers have. A worker left running keeps the
# build lock (its file is open in every worker: tasks/engine/lock.py) and the build's output
# pipes, so the next build would wait for it forever, and so would whoever reads the
# output. A worker gets the signal too (from the terminal, or from doit, which terminates
# its workers when it is interrupted), stops its command and ends, within a second or two
# (Note [Interrupted commands] in tasks/engine/actions.py). But once in a few hundred
# interruptions, CI and a stress run saw a worker that was waiting for its next job never
# run its handler, and wait on. So the build waits for its workers, at most
# WORKERS_GRACE seconds in all, and kills those still running.


def interrupt_on_stop_signals() -> None:
    """SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt, and ending on it prints one line
    (Note [Stop signals])."""
    for stop in STOP_SIGNALS:
        if signal.getsignal(stop) is not signal.SIG_IGN:
            signal.signal(stop, _interrupt)
    if sys.excepthook is not _end_interrupted:
        _other_hooks.append(sys.excepthook)
        sys.excepthook = _end_interrupted


def _interrupt(signal_number: int, _frame: object) -> None:
    """Note the signal, in the order received; then stop the command being held, if any
    (it is raised when the hold ends), else interrupt. Only the first interrupt is raised:
    the build is ending from then on, and another KeyboardInterrupt would cut short doit
    saving the finished tasks (and, landing in the excepthook, print a traceback after all)."""
    _received.append(signal_number)
    if _holders:
        _holders[-1]()
        return
    _raise_once()


def _raise_once() -> None:
    if not _raised:
        _raised.append(True)
        raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals_held(stop: Callable[[], None]) -> Iterator[list[int]]:
    """Inside the block, a stop signal calls `stop` instead of interrupting, and is noted
    in the list this yields; when the block ends, the interrupt is raised (Note [Interrupted
    commands] in tasks/engine/actions.py). Main thread only: Python runs handlers nowhere else.

    The order the signals came in is kept in one place, `_received`, which the handler
    appends to as each one runs, held or not: so the signal reported is the first one
    received, whatever moment the others land at (a Ctrl-C held while a command started,
    then a SIGTERM while the hold ended, was once reported as SIGTERM)."""
    held: list[int] = []
    first = len(_received)

    def hold() -> None:
        held[:] = _received[first:]
        stop()

    _holders.append(hold)
    try:
        yield held
    finally:
        _holders.remove(hold)
        if len(_received) > first:
            _raise_once()


def _end_interrupted(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    """The excepthook: one line for an interrupt, then end by the signal received."""
    if not issubclass(kind, KeyboardInterrupt):
        _other_hooks[0](kind, error, trace)
        return
    # A KeyboardInterrupt that no handler of ours raised is a Ctrl-C (in a doit worker,
    # passed on to this process through its result queue).
    stop = _received[0] if _received else signal.SIGINT
    name = signal.Signals(stop).name
    _end_workers()
    with contextlib.suppress(OSError):  # after a hangup the terminal may be gone
        print(f"interrupted by {name}: {_AFTER}", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
    signal.signal(stop, signal.SIG_DFL)
    os.kill(os.getpid(), stop)


def _end_workers() -> None:
    """Wait for this process's doit workers to end, then kill those still running after
    WORKERS_GRACE seconds (Note [Workers end])."""
    deadline = time.monotonic() + WORKERS_GRACE
    for worker in multiprocessing.active_children():
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join(1.0)
