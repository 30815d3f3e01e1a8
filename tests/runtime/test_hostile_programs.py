"""Truncated and corrupted programs and inputs on a runner built with AddressSanitizer
and UBSan.

Every mutation must end in a normal exit: success (a flip in constant data changes only
the numbers) or one line `runner: FILE: what is wrong`. A signal, a sanitizer report (an
out-of-bounds read that happened not to crash), a hang or a multi-line message fails.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# A hostile file may ask for terabytes: ASan then warns and returns null (the harness's
# ENVIRONMENT caps allocations), as malloc would.
from tests.fuzz.persistent import Driver, build_driver
from tests.fuzz.sanitized import ALLOCATION_WARNING, ENVIRONMENT, sanitized_runner
from tests.workspace import REPO

MODELS = {  # model -> its inputs; small programs covering tensors, lists, sym ints, methods
    "add_mul": ["in0.npy", "in1.npy"],
    "dynamic": ["in0.npy"],
    "multi_method": ["in0.npy"],
    "conv": ["in0.npy"],
}


@pytest.fixture(scope="module")
def runner() -> Path:
    """The fuzz harness's sanitized runner: every operator of portable and prim, so every
    model here runs on it, and one build serves both (tests/fuzz/sanitized.py)."""
    return sanitized_runner()


@pytest.fixture(scope="module")
def driver(runner: Path) -> Path:
    """The fuzz harness's persistent driver for that runner: the runner's own main() called
    once per case in one sanitized process (tests/fuzz/persistent.py), which answers as
    the runner does (tests/fuzz/test_persistent.py). A process per case spent most of its
    time starting the sanitizer runtimes: 11,614 cases here."""
    return build_driver(runner)


def input_arguments(inputs: list[Path]) -> list[str]:
    return [argument for path in inputs for argument in ("--input", str(path))]


def run(
    runner: Path,
    model: str,
    scratch: Path,
    program: bytes | None,
    first_input: bytes | None = None,
    driver: Driver | None = None,
) -> str | None:
    """What is wrong with the runner's handling of `model` with its program or its first
    input replaced by these bytes, or None. With a `driver`, the case runs there first; a
    case it does not answer with success or one line (nor without a leak) runs again in a
    runner process of its own, whose result is the verdict."""
    scratch.mkdir()
    folder = REPO / "examples" / "models" / model
    path = scratch / "program.pte"
    path.write_bytes(program if program is not None else (folder / f"{model}.pte").read_bytes())
    inputs = [folder / name for name in MODELS[model]]
    if first_input is not None:
        inputs[0] = scratch / "input.npy"
        inputs[0].write_bytes(first_input)
    arguments = [str(path), *input_arguments(inputs), "--output-dir", str(scratch)]
    if driver is not None:
        reply = driver.run([str(scratch), *arguments], timeout=60)
        stderr = scratch / "stderr"
        if reply is not None and not reply[1]:
            if problem(reply[0], stderr.read_bytes() if stderr.exists() else b"") is None:
                return None
        driver.stop()  # whatever state it is in: start afresh
    try:
        result = subprocess.run(
            [str(runner), *arguments], capture_output=True, timeout=60, env=ENVIRONMENT
        )
    except subprocess.TimeoutExpired:
        return "hangs"
    return problem(result.returncode, result.stderr)


def problem(returncode: int, raw_stderr: bytes) -> str | None:
    """What is wrong with a run that ended with `returncode` and wrote `raw_stderr`: a
    signal, a sanitizer report, or a failure in anything but one line."""
    stderr = raw_stderr.decode("utf-8", "backslashreplace")
    lines = [line for line in stderr.splitlines() if ALLOCATION_WARNING not in line]
    if returncode < 0:
        return f"killed by signal {-returncode}: {stderr[-2000:]}"
    if "Sanitizer" in stderr.replace(ALLOCATION_WARNING, "") or "runtime error:" in stderr:
        return stderr[-3000:]
    if returncode != 0 and (len(lines) != 1 or not lines[0].startswith("runner: ")):
        return f"exit {returncode} without one line: {stderr[-2000:]}"
    if not raw_stderr.isascii():
        return f"bytes of the file echoed raw: {stderr}"
    return None


def mutations(program: bytes, step: int) -> Iterator[tuple[str, bytes]]:
    """Truncations, and single-byte flips of three kinds, every `step` bytes."""
    for length in range(0, len(program), step):
        yield f"truncated to {length} B", program[:length]
    for offset in range(0, len(program), max(1, step // 2)):
        for mask in (0xFF, 0x80, 0x01):
            mutated = bytearray(program)
            mutated[offset] ^= mask
            yield f"byte {offset} ^ {mask:#04x}", bytes(mutated)


def assert_all_end_cleanly(
    cases: list[tuple[str, bytes]],
    check: Callable[[Path, bytes, Driver], str | None],
    scratch: Path,
    driver: Path,
) -> None:
    """Runs `check(scratch folder, bytes, driver)` for every case, four at a time, each
    thread with a persistent driver of its own."""
    drivers: list[Driver] = []
    mine = threading.local()

    def problem(index: int) -> str | None:
        if not hasattr(mine, "driver"):
            mine.driver = Driver(driver, scratch / f"driver-{threading.get_ident()}.log")
            drivers.append(mine.driver)
        name, data = cases[index]
        found = check(scratch / str(index), data, mine.driver)
        return None if found is None else f"{name}: {found}"

    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            problems = [p for p in pool.map(problem, range(len(cases))) if p is not None]
    finally:
        for process in drivers:
            process.stop()
    assert not problems, f"{len(problems)} of {len(cases)} mutations:\n" + "\n".join(problems[:5])


@pytest.mark.parametrize("model", sorted(MODELS))
def test_mutated_programs_end_cleanly(
    runner: Path, driver: Path, model: str, tmp_path: Path
) -> None:
    program = (REPO / "examples" / "models" / model / f"{model}.pte").read_bytes()
    cases = list(mutations(program, step=max(5, len(program) // 400)))
    assert_all_end_cleanly(
        cases,
        lambda scratch, data, process: run(runner, model, scratch, data, driver=process),
        tmp_path,
        driver,
    )


def test_mutated_inputs_end_cleanly(runner: Path, driver: Path, tmp_path: Path) -> None:
    """The .npy reader: every truncation and flips of every byte of add_mul's first input."""
    array = (REPO / "examples" / "models" / "add_mul" / MODELS["add_mul"][0]).read_bytes()
    assert_all_end_cleanly(
        list(mutations(array, step=1)),
        lambda scratch, data, process: run(runner, "add_mul", scratch, None, data, process),
        tmp_path,
        driver,
    )


def test_the_unmodified_programs_run(runner: Path, tmp_path: Path) -> None:
    for model in MODELS:
        program = (REPO / "examples" / "models" / model / f"{model}.pte").read_bytes()
        assert run(runner, model, tmp_path / model, program) is None


@pytest.mark.parametrize(
    ("byte", "shown"), [(b"\n", b"\\x0a"), (b"\x1b", b"\\x1b"), (b"\xff", b"\\xff")]
)
def test_an_operator_name_is_shown_safely(
    runner: Path, byte: bytes, shown: bytes, tmp_path: Path
) -> None:
    program = (REPO / "examples" / "models" / "add_mul" / "add_mul.pte").read_bytes()
    assert program.count(b"aten::mul") == 1
    hostile = program.replace(b"aten::mul", b"aten::m" + byte + b"l")
    path = tmp_path / "hostile.pte"
    path.write_bytes(hostile)
    inputs = [REPO / "examples" / "models" / "add_mul" / name for name in MODELS["add_mul"]]
    result = subprocess.run(
        [str(runner), str(path), *input_arguments(inputs)],
        capture_output=True,
        timeout=60,
        env=ENVIRONMENT,
        check=False,
    )
    assert result.returncode != 0
    assert result.stderr.count(b"\n") == 1 and result.stderr.isascii(), result.stderr
    assert b"operator aten::m" + shown + b"l.out is not in this runner" in result.stderr
