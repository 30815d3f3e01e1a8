"""The persistent mode of the runner fuzz (tests/fuzz/persistent.py): the driver answers
every case as a runner process does, a short run finds nothing, and a case the driver
does not survive is confirmed in a process of its own while the run goes on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.fuzz.harness import case_arguments, check_runner, examples, runner_case
from tests.fuzz.persistent import Driver, build_driver, fuzz_runner_persistent
from tests.fuzz.sanitized import sanitized_runner

SEED = 20261125


@pytest.fixture(scope="module")
def driver() -> Path:
    return build_driver(sanitized_runner())


def test_the_driver_answers_each_case_as_the_runner_does(driver: Path, tmp_path: Path) -> None:
    """Exit code and stderr, byte for byte, in the same folder: the driver runs the
    runner's own main() with the case's arguments, and nothing carries over."""
    corpus, runner = examples(), sanitized_runner()
    process = Driver(driver, tmp_path / "driver.log")
    folder = tmp_path / "case"
    outcomes = set()
    try:
        for index in range(80):
            case = runner_case(corpus, SEED, index)
            reply = process.run([str(folder), *case_arguments(case, folder)], timeout=300)
            assert reply is not None, (folder / "stderr").read_text()
            code, leaked = reply
            in_driver = (folder / "stderr").read_bytes()
            outcome, problem = check_runner(runner, case, folder, timeout=300)
            assert problem is None and not leaked, (index, problem)
            outcomes.add(outcome)
            result = _runner_result(runner, case_arguments(case, folder))
            assert (code, in_driver) == result, (index, case.what)
    finally:
        process.stop()
    assert outcomes == {"ok", "error"}


def _runner_result(runner: Path, arguments: list[str]) -> tuple[int, bytes]:
    import subprocess

    from tests.fuzz.sanitized import ENVIRONMENT

    result = subprocess.run(
        [str(runner), *arguments], capture_output=True, env=ENVIRONMENT, timeout=300, check=False
    )
    return result.returncode, result.stderr


def test_short_persistent_run(driver: Path, tmp_path: Path) -> None:
    stats = fuzz_runner_persistent(
        sanitized_runner(), driver, 1000, SEED, 2, 300.0, tmp_path / "findings"
    )
    assert stats.cases == 1000
    assert not stats.findings, "\n".join(
        f"{f.index}: {f.what}: {f.problem}" for f in stats.findings[:5]
    )
    assert stats.outcomes.get("ok", 0) > 30 and stats.outcomes.get("error", 0) > 300, stats.outcomes


# A stand-in driver that answers "0 0" (success, no leak) and dies with a sanitizer report
# on the third case it is given: started afresh, it counts again.
FAKE_DRIVER = """#!{python}
import os, sys
for count, line in enumerate(sys.stdin, 1):
    folder = line.rstrip("\\n").split("\\t")[1]
    with open(os.path.join(folder, "stderr"), "w") as stderr:
        if count == 3:
            stderr.write("x.cpp:1:2: runtime error: load of value 255\\n")
            stderr.close()
            os._exit(1)
    print("0 0", flush=True)
"""


# Cases 10, 11 pass; 12 kills the driver; 13, 14 pass in a new one; 15 kills it again; 16
# passes in a third. The cases a dead driver had not checked for leaks yet (10, 11; 13, 14)
# are run alone too: with a runner that always fails, each is a finding.
@pytest.mark.parametrize(
    ("runner_script", "problem", "found"),
    [
        (
            "echo '==1==ERROR: AddressSanitizer: heap-use-after-free' >&2; exit 1",
            "==1==ERROR",
            [10, 11, 12, 13, 14, 15],
        ),
        ("exit 0", "in the persistent driver only: x.cpp:1:2: runtime error", [12, 15]),
    ],
    ids=["confirmed", "only in the driver"],
)
def test_a_case_the_driver_does_not_survive_is_run_again_alone(
    tmp_path: Path, runner_script: str, problem: str, found: list[int]
) -> None:
    fake_driver = tmp_path / "driver"
    fake_driver.write_text(FAKE_DRIVER.format(python=sys.executable))
    fake_driver.chmod(0o755)
    fake_runner = tmp_path / "runner"
    fake_runner.write_text(f"#!/bin/sh\n{runner_script}\n")
    fake_runner.chmod(0o755)
    stats = fuzz_runner_persistent(fake_runner, fake_driver, 7, SEED, 1, 60.0, None, start=10)
    assert stats.cases == 7
    assert sorted(finding.index for finding in stats.findings) == found
    assert all(finding.problem.startswith(problem) for finding in stats.findings), stats.findings
    assert stats.outcomes.get("ok") == 5
