"""An interrupted build ends with its workers: one that never runs its handler is killed
after the grace (Note [Workers end] in tasks/engine/signals.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.workspace import REPO, interrupted_line

# A build process with a worker that blocks the stop signals, as an idle doit worker that
# never ran its handler behaved: it would wait for a job forever.
STUBBORN_WORKER = """
import multiprocessing, signal, sys, time
from selective_build.tasks.engine import signals

signal.signal(signal.SIGINT, signal.default_int_handler)
signals.interrupt_on_stop_signals()
signals.WORKERS_GRACE = float(sys.argv[1])

def stubborn() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, signals.STOP_SIGNALS)
    time.sleep(600)

worker = multiprocessing.get_context("fork").Process(target=stubborn)
worker.start()
print(worker.pid, flush=True)
time.sleep(600)
"""


def test_a_worker_that_ignores_the_interrupt_is_killed_after_the_grace() -> None:
    grace = 1.0
    build = subprocess.Popen(
        [sys.executable, "-c", STUBBORN_WORKER, str(grace)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert build.stdout is not None
    worker = int(build.stdout.readline())
    time.sleep(0.2)  # the worker has blocked the signals
    started = time.monotonic()
    os.killpg(build.pid, signal.SIGINT)  # Ctrl-C reaches the build and its worker
    _, stderr = build.communicate(timeout=60)  # the worker held the pipes open
    assert build.returncode == -signal.SIGINT, stderr
    assert stderr == interrupted_line(signal.SIGINT)
    assert time.monotonic() - started >= grace  # it had its chance to end by itself
    try:
        os.kill(worker, 0)
    except ProcessLookupError:
        return
    raise AssertionError("the worker outlived the build")
