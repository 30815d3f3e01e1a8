"""Subprocess actions: outputs appear whole or not at all, an interrupt leaves nothing behind,
and a missing tool is one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random

import pytest

from tasks.actions import run_to_temporaries, temporary
from tests.workspace import REPO


def writer(output: Path, exit_code: int = 0) -> list[str]:
    """A command that writes `output`'s temporary, then exits with `exit_code`."""
    code = f"open({str(temporary(output))!r}, 'w').write('new'); raise SystemExit({exit_code})"
    return [sys.executable, "-c", code]


def test_a_finished_command_moves_its_output_into_place(tmp_path: Path) -> None:
    output = tmp_path / "out" / "a.o"
    assert run_to_temporaries(writer(output), [output])
    assert output.read_text() == "new" and not temporary(output).exists()


def test_a_failed_command_leaves_the_old_output_and_no_temporary(tmp_path: Path) -> None:
    output = tmp_path / "a.o"
    output.write_text("old")
    assert not run_to_temporaries(writer(output, exit_code=1), [output])
    assert output.read_text() == "old" and not temporary(output).exists()


def test_a_missing_compiler_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "a.o"
    assert not run_to_temporaries(["no-such-compiler-here", "-c", "x.cpp"], [output])
    error = capsys.readouterr().err
    assert error == "error: cannot run 'no-such-compiler-here': No such file or directory\n"


# Runs a command the way a doit worker does: SIGTERM raises KeyboardInterrupt, and another
# thread (like its result queue's feeder) is there for the kernel to hand signals to.
INTERRUPTED = """
import sys, threading, time
from pathlib import Path
from tasks.actions import run_to_temporaries, temporary
from tasks.guard import terminate_like_interrupt

terminate_like_interrupt()
print("ready", flush=True)
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
output, pids = Path(sys.argv[1]), Path(sys.argv[2])
command = f"echo $$ >> {pids}; : > {temporary(output)}; exec sleep 60"
run_to_temporaries(["sh", "-c", command], [output])
"""


@pytest.mark.parametrize("moment", ["while it starts", "while it runs"])
def test_an_interrupt_leaves_no_temporary_and_no_command_running(
    tmp_path: Path, moment: str
) -> None:
    """Ctrl-C followed at once by SIGTERM (what a doit worker gets from the terminal and
    then from doit), at random moments: never a temporary left, never the command left
    running, always the interrupt raised (Note [Interrupted commands])."""
    random = Random(moment)
    for attempt in range(40):
        output, pids = tmp_path / f"{attempt}.o", tmp_path / f"{attempt}.pids"
        victim = subprocess.Popen(
            [sys.executable, "-c", INTERRUPTED, str(output), str(pids)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert victim.stdout is not None and victim.stdout.readline() == "ready\n"
        if moment == "while it runs":
            _wait_until(lambda pattern=f"{attempt}.o.*.tmp": any(tmp_path.glob(pattern)))
        else:
            time.sleep(random.uniform(0, 0.02))
        victim.send_signal(signal.SIGINT)
        time.sleep(random.choice([0, random.uniform(0, 0.002)]))
        victim.send_signal(signal.SIGTERM)
        _, error = victim.communicate(timeout=60)
        # Python ends on an unhandled KeyboardInterrupt by killing itself with SIGINT; the
        # SIGTERM may come in late, while it shuts down, and end it first.
        assert victim.returncode in (-signal.SIGINT, -signal.SIGTERM), error
        assert "KeyboardInterrupt" in error, error
        started = pids.read_text().split() if pids.exists() else []
        assert not any(_alive(int(pid)) for pid in started), f"attempt {attempt}: still running"
        assert not list(tmp_path.glob("*.tmp")), f"attempt {attempt}: {error}"


def _wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.001)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
