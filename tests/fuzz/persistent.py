"""Persistent mode of the runner fuzz: one sanitized driver process (persistent/driver.cpp,
the runner's own main() called once per case) runs many cases, as libFuzzer's persistent
mode does. A process per case spent nearly all its time starting the sanitizer runtimes
(5.5 cases a second with two workers on a loaded machine).

Each worker owns one driver and one folder and gives it its cases one at a time (the
runner maps its files: nothing is rewritten while a case runs). A case whose run the
driver does not finish (a sanitizer report ends the process, or no answer within the
timeout), that leaks, or that ends in anything but success or one line, is run again by
the per-case runner in a process of its own (harness.check_runner): what that run says
is the finding; a case that fails only in the driver is a finding too (state carried from
an earlier case), named so. The driver is then started afresh.
"""

from __future__ import annotations

import functools
import os
import select
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from selective_build.codegen.plan.objects import BASE_CFLAGS
from tests.fuzz.harness import (
    Finding,
    RunnerCase,
    Stats,
    case_arguments,
    check_runner,
    examples,
    finding_class,
    judge,
    kept_runner_case,
    runner_case,
    runner_classes,
    save,
)
from tests.fuzz.kept import Keeper
from tests.fuzz.sanitized import ENVIRONMENT, SANITIZE_FLAGS
from tests.workspace import REPO

# Cases between two leak checks of a driver (each stops its threads and scans its heap).
LEAK_CHECK_EVERY = 100
DRIVER_SOURCE = REPO / "tests" / "fuzz" / "persistent" / "driver.cpp"
RUNNER_SOURCES = [REPO / "runtime" / "runner" / name for name in ("file_io.cpp", "npy.cpp")]


def build_driver(runner: Path) -> Path:
    """The driver beside the sanitized `runner`, linked with its target's libruntime.a;
    rebuilt when the library or a source is newer."""
    library = runner.parent / "libruntime.a"
    binary = runner.parent / "persistent_driver"
    inputs = [library, DRIVER_SOURCE, REPO / "runtime" / "runner" / "main.cpp", *RUNNER_SOURCES]
    if binary.exists() and all(p.stat().st_mtime_ns <= binary.stat().st_mtime_ns for p in inputs):
        return binary
    temporary = binary.with_name(f"{binary.name}.{os.getpid()}.tmp")
    command = ["c++", *BASE_CFLAGS, *SANITIZE_FLAGS, f"-I{REPO}", str(DRIVER_SOURCE)]
    command += [*map(str, RUNNER_SOURCES), str(library), "-o", str(temporary)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the persistent driver does not build: {result.stderr[-3000:]}")
    os.replace(temporary, binary)
    return binary


class Driver:
    """One driver process, started on first use and again after it ended."""

    def __init__(self, binary: Path, log: Path) -> None:
        self.binary = binary
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.pending = b""
        self.ended: int | None = None  # the exit status of the driver that ended last
        self.process_ending = False  # it closed its stdout

    def run(
        self, arguments: list[str], timeout: float, check_leaks: bool = True
    ) -> tuple[int, bool] | None:
        """(exit code, leaked) of one case, or None when the driver ended (its status is
        then `ended`) or did not answer within `timeout` (it is then killed). `leaked`:
        with `check_leaks`, whether an allocation of a case since the last check is lost."""
        process = self._started()
        assert process.stdin is not None and process.stdout is not None
        request = "\t".join(["1" if check_leaks else "0", *arguments]) + "\n"
        try:
            process.stdin.write(request.encode())
            process.stdin.flush()
        except BrokenPipeError:
            pass  # it ended: its stdout says so
        line = self._line(process.stdout, timeout)
        if line is None:
            self.ended = self.stop()
            return None
        code, leaked = line.split()
        return int(code), leaked == b"1"

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    [str(self.binary)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    env=ENVIRONMENT,
                )
            self.pending = b""
        return self.process

    def _line(self, stream: IO[bytes], timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([stream], [], [], remaining)[0]:
                return None
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:  # it ended: its status is there in a moment
                self.process_ending = True
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    def stop(self) -> int | None:
        """Stop the driver; its exit status (negative: the signal), None if none ran."""
        process, self.process = self.process, None
        if process is None:
            return None
        ending, self.process_ending = self.process_ending, False
        if ending:  # closed its stdout: exiting, with a status of its own to read
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
        if process.poll() is None:
            process.kill()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        return process.wait()


@dataclass
class _Shared:
    stats: Stats
    lock: threading.RLock
    began: float
    progress: bool
    keep: Keeper | None


def fuzz_runner_persistent(
    runner: Path,
    driver: Path,
    count: int,
    seed: int,
    workers: int,
    timeout: float,
    findings_dir: Path | None,
    start: int = 0,
    progress: bool = False,
    keep: Keeper | None = None,
    draw: Callable[[int], RunnerCase] | None = None,
) -> Stats:
    """Cases start..start+count-1 through `workers` drivers; the same cases, findings and
    outcomes as harness.fuzz_runner gives (the runner's code runs either way). `keep` is
    offered every case; `draw` gives case `index` (by default, drawn from `seed`)."""
    corpus = examples()
    if draw is None:
        draw = functools.partial(runner_case, corpus, seed)
    shared = _Shared(Stats("runner"), threading.RLock(), time.monotonic(), progress, keep)
    with tempfile.TemporaryDirectory(prefix="fuzz-persistent-") as scratch:

        def work(worker: int) -> None:
            folder = Path(scratch) / str(worker)
            folder.mkdir()
            process = Driver(driver, Path(scratch) / f"driver{worker}.log")
            indices = range(start + worker, start + count, workers)
            unchecked: list[tuple[int, RunnerCase]] = []  # since the last leak check
            try:
                for index in indices:
                    case = draw(index)
                    unchecked.append((index, case))
                    check = len(unchecked) >= LEAK_CHECK_EVERY or index == indices[-1]
                    began = time.perf_counter()
                    outcome, problem, checked, classes = _one(
                        process, runner, case, folder, timeout, check
                    )
                    took = time.perf_counter() - began
                    _record(shared, seed, index, case, outcome, problem, findings_dir, took)
                    if shared.keep is not None:
                        shared.keep.offer(classes, kept_runner_case(case, seed, index))
                    if checked is None:  # the driver stopped before the check: no verdict
                        for earlier, earlier_case in unchecked[:-1]:
                            _confirm_alone(
                                shared,
                                seed,
                                earlier,
                                earlier_case,
                                runner,
                                folder,
                                timeout,
                                findings_dir,
                            )
                        unchecked.clear()
                    elif not checked:  # a leak among the unchecked cases: which one?
                        _find_leak(shared, seed, unchecked, runner, folder, timeout, findings_dir)
                        unchecked.clear()
                    elif check:
                        unchecked.clear()
            finally:
                process.stop()

        threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return shared.stats


def _one(
    driver: Driver, runner: Path, case: RunnerCase, folder: Path, timeout: float, check: bool
) -> tuple[str, str | None, bool | None, frozenset[str]]:
    """(outcome, problem or None, checked, classes) of one case: in the driver, confirmed
    in a process of its own when the driver saw anything but success or one line.
    `checked`: True when a leak check ran and found nothing (or none was asked), False
    when it found a leak (the driver is then stopped), None when the driver stopped before
    checking. `classes`: what the kept corpus files it under (harness.runner_classes)."""
    reply = driver.run([str(folder), *case_arguments(case, folder)], timeout, check)
    stderr = (folder / "stderr").read_bytes() if (folder / "stderr").exists() else b""
    checked: bool | None = True
    if reply is None:
        status = driver.ended
        outcome, problem = judge(-9 if status is None else status, stderr)
        problem = problem or f"the driver ended (status {status}) or did not answer in {timeout} s"
        checked = None
    else:
        code, leaked = reply
        outcome, problem = judge(code, stderr)
        if leaked:
            driver.stop()  # a leak stays unreachable: every later check would report it
            checked = False
    if problem is None:
        return outcome, None, checked, runner_classes(case, outcome, stderr, folder)
    if checked:
        driver.stop()  # it may be in any state after that: start afresh
        checked = None
    confirmed, again = check_runner(runner, case, folder / "confirm", timeout)
    if again is not None:
        return confirmed, again, checked, frozenset()
    return outcome, f"in the persistent driver only: {problem}", checked, frozenset()


def _confirm_alone(
    shared: _Shared,
    seed: int,
    index: int,
    case: RunnerCase,
    runner: Path,
    folder: Path,
    timeout: float,
    findings_dir: Path | None,
) -> bool:
    """Run a case already counted in a process of its own, for what the driver could not
    check (a leak); record a finding if it shows one. Whether it did."""
    _, problem = check_runner(runner, case, folder / "confirm", timeout)
    if problem is not None:
        _add_finding(shared, seed, index, case, problem, findings_dir)
    return problem is not None


def _find_leak(
    shared: _Shared,
    seed: int,
    cases: list[tuple[int, RunnerCase]],
    runner: Path,
    folder: Path,
    timeout: float,
    findings_dir: Path | None,
) -> None:
    """A leak check failed after `cases`: each runs alone (the per-case runner checks for
    leaks at exit); one that leaks there is the finding, else the leak is the driver's."""
    found = [
        _confirm_alone(shared, seed, index, case, runner, folder, timeout, findings_dir)
        for index, case in cases
    ]
    if not any(found):
        index, case = cases[-1]
        report = (folder / "leaks").read_text(errors="backslashreplace")[-3000:]
        first = cases[0][0]
        problem = f"in the persistent driver only: a leak among cases {first}..{index}: {report}"
        _add_finding(shared, seed, index, case, problem, findings_dir)


def _add_finding(
    shared: _Shared,
    seed: int,
    index: int,
    case: RunnerCase,
    problem: str,
    findings_dir: Path | None,
) -> None:
    """Record, save and keep a finding (the caller holds `shared.lock` or not: it nests)."""
    with shared.lock:
        finding = Finding("runner", seed, index, case.what, problem, case.example.name)
        shared.stats.findings.append(finding)
        save(finding, case.program if case.mutated_input is None else case.array, findings_dir)
        if shared.keep is not None:
            shared.keep.offer([finding_class(finding)], kept_runner_case(case, seed, index))


def _record(
    shared: _Shared,
    seed: int,
    index: int,
    case: RunnerCase,
    outcome: str,
    problem: str | None,
    findings_dir: Path | None,
    took: float,
) -> None:
    with shared.lock:
        stats = shared.stats
        stats.cases += 1
        stats.durations.append(took)
        stats.count(outcome)
        if problem is not None:
            _add_finding(shared, seed, index, case, problem, findings_dir)
        if shared.progress and stats.cases % 1000 == 0:
            rate = stats.cases / (time.monotonic() - shared.began)
            print(
                f"runner: {stats.cases} cases, {len(stats.findings)} findings, {rate:.1f}/s, "
                f"per case max {max(stats.durations) * 1e3:.0f} ms, "
                f"p99 {stats.percentile(0.99) * 1e3:.0f} ms",
                flush=True,
            )
