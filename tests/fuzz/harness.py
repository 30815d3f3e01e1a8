"""The two fuzz targets and what counts as a finding.

Reader: `codegen.pte.read_model_ops` (what `model_ops` and `gen_oplist` call) and the
selection built from its result, in-process, on a mutated program. Allowed: a result, or
one `InputError` whose text is one line. Anything else is a finding: another exception,
a multi-line message, or a call slower than the time bound.

Runner: the sanitized all-operators runner on an example program and its inputs, one of
them mutated (the program, or one input `.npy`), sometimes run twice (`--iterations 2`).
Allowed: exit 0, or a non-zero exit with exactly one line `runner: ...` on stderr.
Findings: a signal, a sanitizer report, a timeout, several lines, non-ASCII bytes.

Case `i` of a run with seed `s` draws everything from `random.Random(f"{s}:{target}:{i}")`,
so a finding is reproduced from its seed and index alone (`python -m tests.fuzz --replay`);
findings are also saved with the mutated file.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.selection import Selection
from tests.fuzz.kept import Keeper, KeptCase, key_shapes, message_class, read_index
from tests.fuzz.mutate import mutate_array, mutate_program
from tests.fuzz.sanitized import ALLOCATION_WARNING, ENVIRONMENT
from tests.workspace import REPO

MODELS_DIR = REPO / "examples" / "models"


@dataclass(frozen=True)
class Example:
    name: str
    program: bytes
    inputs: tuple[Path, ...]


# Programs larger than this (the real MobileNetV2 and ResNet, megabytes of weights) are left
# out: a mutation would almost always land in the weights, and one sanitized run of them
# takes seconds; their structure (convolutions, batch norm, pooling) is in the small ones.
MAX_EXAMPLE_BYTES = 1 << 20


def examples() -> list[Example]:
    """Every example program of at most MAX_EXAMPLE_BYTES with its reference inputs (in0.npy,
    in1.npy, ...), by name."""
    found = []
    for folder in sorted(MODELS_DIR.iterdir()):
        program = folder / f"{folder.name}.pte"
        if program.is_file() and program.stat().st_size <= MAX_EXAMPLE_BYTES:
            inputs = tuple(sorted(folder.glob("in[0-9]*.npy"), key=lambda p: int(p.stem[2:])))
            found.append(Example(folder.name, program.read_bytes(), inputs))
    return found


@dataclass
class Finding:
    target: str
    seed: int
    index: int
    what: str  # the mutation
    problem: str
    example: str


def finding_class(finding: Finding) -> str:
    """The class a finding is kept under: one of its own, so it is replayed once fixed."""
    return f"finding {finding.target} {finding.seed}-{finding.index}"


@dataclass
class Stats:
    target: str
    cases: int = 0
    findings: list[Finding] = field(default_factory=list)
    durations: list[float] = field(default_factory=list)  # seconds per case
    outcomes: dict[str, int] = field(default_factory=dict)

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.durations)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0

    def summary(self) -> str:
        return (
            f"{self.target}: {self.cases} cases, {len(self.findings)} findings, "
            f"outcomes {dict(sorted(self.outcomes.items()))}, per case max "
            f"{max(self.durations, default=0) * 1e3:.1f} ms, "
            f"p99 {self.percentile(0.99) * 1e3:.1f} ms"
        )


def _rng(seed: int, target: str, index: int) -> random.Random:
    return random.Random(f"{seed}:{target}:{index}")


# ---- reader ----


def reader_case(corpus: list[Example], seed: int, index: int) -> tuple[Example, bytes, str]:
    rng = _rng(seed, "reader", index)
    example = rng.choice(corpus)
    data, what = mutate_program(rng, example.program, [e.program for e in corpus])
    return example, data, what


def check_reader(path: Path) -> tuple[str, str | None, frozenset[str]]:
    """(outcome, problem or None, classes) of reading the program at `path`; the classes
    (tests/fuzz/kept.py) tell which cases are worth keeping."""
    try:
        ops = read_model_ops(path)
        Selection.from_model(ops, str(path))
    except InputError as error:
        text = str(error)
        if "\n" in text or "\r" in text:
            return "error", f"InputError of several lines: {text!r}", frozenset()
        return "error", None, frozenset({message_class(text, [str(path)])})
    except RecursionError:
        return "crash", "RecursionError", frozenset()
    except Exception as error:  # noqa: BLE001  anything else is what the fuzzer looks for
        return "crash", f"{type(error).__name__}: {error}", frozenset()
    return "ok", None, key_shapes(ops)


def fuzz_reader(
    count: int,
    seed: int,
    time_bound: float,
    findings_dir: Path | None,
    start: int = 0,
    progress: bool = False,
    keep: Keeper | None = None,
) -> Stats:
    """Cases start..start+count-1 through the reader; with `progress`, a line per 10,000;
    `keep` is offered every case."""
    corpus = examples()
    stats = Stats("reader")
    with tempfile.TemporaryDirectory(prefix="fuzz-reader-") as scratch:
        path = Path(scratch) / "program.pte"
        for index in range(start, start + count):
            example, data, what = reader_case(corpus, seed, index)
            path.write_bytes(data)
            began = time.perf_counter()
            outcome, problem, classes = check_reader(path)
            took = time.perf_counter() - began
            stats.cases += 1
            stats.durations.append(took)
            stats.count(outcome)
            if problem is None and took > time_bound:
                problem = f"took {took:.2f} s, over the bound of {time_bound} s"
            if problem is not None:
                finding = Finding("reader", seed, index, what, problem, example.name)
                stats.findings.append(finding)
                save(finding, data, findings_dir)
                classes = frozenset({finding_class(finding)})
            if keep is not None:
                info: dict[str, object] = {"example": example.name, "what": what}
                kept = KeptCase(f"{seed}-{index}", (len(data), seed, index), data, ".pte", info)
                keep.offer(classes, kept)
            if progress and stats.cases % 10000 == 0:
                print(stats.summary(), flush=True)
    return stats


# ---- runner ----


@dataclass(frozen=True)
class RunnerCase:
    example: Example
    program: bytes
    mutated_input: int | None  # which input is replaced by `array`
    array: bytes
    iterations: int
    what: str


def runner_case(corpus: list[Example], seed: int, index: int) -> RunnerCase:
    rng = _rng(seed, "runner", index)
    example = rng.choice(corpus)
    iterations = 2 if rng.random() < 0.25 else 1
    if example.inputs and rng.random() < 0.3:
        which = rng.randrange(len(example.inputs))
        array, what = mutate_array(rng, example.inputs[which].read_bytes())
        return RunnerCase(
            example, example.program, which, array, iterations, f"input {which}: {what}"
        )
    program, what = mutate_program(rng, example.program, [e.program for e in corpus])
    return RunnerCase(example, program, None, b"", iterations, what)


def case_arguments(case: RunnerCase, scratch: Path) -> list[str]:
    """The runner's arguments for `case`, after writing its mutated file into `scratch`."""
    scratch.mkdir(parents=True, exist_ok=True)
    program = scratch / "program.pte"
    program.write_bytes(case.program)
    inputs = list(case.example.inputs)
    if case.mutated_input is not None:
        inputs[case.mutated_input] = scratch / "input.npy"
        inputs[case.mutated_input].write_bytes(case.array)
    arguments = [str(program), "--output-dir", str(scratch)]
    arguments += [a for path in inputs for a in ("--input", str(path))]
    if case.iterations > 1:
        arguments += ["--iterations", str(case.iterations)]
    return arguments


def check_runner(
    runner: Path, case: RunnerCase, scratch: Path, timeout: float
) -> tuple[str, str | None]:
    """(outcome, problem or None) of one run of the sanitized runner."""
    command = [str(runner), *case_arguments(case, scratch)]
    try:
        result = subprocess.run(
            command, capture_output=True, timeout=timeout, env=ENVIRONMENT, check=False
        )
    except subprocess.TimeoutExpired:
        return "hang", f"no exit within {timeout} s"
    return judge(result.returncode, result.stderr)


def judge(returncode: int, raw_stderr: bytes) -> tuple[str, str | None]:
    """(outcome, problem or None) of a run that ended with `returncode` (negative: killed
    by that signal) and wrote `raw_stderr`."""
    stderr = raw_stderr.decode("utf-8", "backslashreplace")
    lines = [line for line in stderr.splitlines() if ALLOCATION_WARNING not in line]
    if returncode < 0:
        return "crash", f"killed by signal {-returncode}: {stderr[-3000:]}"
    if "Sanitizer" in stderr.replace(ALLOCATION_WARNING, "") or "runtime error:" in stderr:
        return "crash", stderr[-3000:]
    if not raw_stderr.isascii():
        return "error", f"raw bytes on stderr: {stderr[-2000:]}"
    if returncode == 0:
        return "ok", None if not lines else f"exit 0 with stderr: {stderr[-2000:]}"
    if len(lines) != 1 or not lines[0].startswith("runner: "):
        return "error", f"exit {returncode} without one line: {stderr[-2000:]}"
    return "error", None


def runner_classes(case: RunnerCase, outcome: str, stderr: bytes, folder: Path) -> frozenset[str]:
    """The classes (tests/fuzz/kept.py) of a case that ran in `folder` without a finding:
    success on its example, or its one line."""
    if outcome == "ok":
        return frozenset({f"ok {case.example.name}"})
    text = stderr.decode("ascii", "backslashreplace")
    lines = [line for line in text.splitlines() if ALLOCATION_WARNING not in line]
    return frozenset({message_class(lines[-1], [str(folder), str(REPO)])})


def kept_runner_case(case: RunnerCase, seed: int, index: int) -> KeptCase:
    """`case` as the kept corpus stores it: the mutated file, and what to run it with."""
    data, suffix = (case.program, ".pte") if case.mutated_input is None else (case.array, ".npy")
    info: dict[str, object] = {"example": case.example.name, "what": case.what}
    info |= {"input": case.mutated_input, "iterations": case.iterations}
    return KeptCase(f"{seed}-{index}", (len(data), seed, index), data, suffix, info)


def kept_runner_cases(folder: Path) -> list[tuple[str, RunnerCase]]:
    """The runner cases of the kept corpus in `folder`, by file name (kept_runner_case's
    inverse: the other inputs are the example's own)."""
    corpus = {example.name: example for example in examples()}
    cases = []
    for file, entry in read_index(folder).items():
        example, data = corpus[str(entry["example"])], (folder / file).read_bytes()
        which, iterations, what = entry["input"], entry["iterations"], str(entry["what"])
        assert (which is None or isinstance(which, int)) and isinstance(iterations, int)
        program, array = (data, b"") if which is None else (example.program, data)
        cases.append((file, RunnerCase(example, program, which, array, iterations, what)))
    return cases


def fuzz_runner(
    runner: Path,
    count: int,
    seed: int,
    workers: int,
    timeout: float,
    findings_dir: Path | None,
    start: int = 0,
    progress: bool = False,
) -> Stats:
    """Cases start..start+count-1 through the runner, `workers` processes at a time."""
    corpus = examples()
    stats = Stats("runner")
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fuzz-runner-") as scratch:

        def one(index: int) -> tuple[int, RunnerCase, str, str | None, float]:
            case = runner_case(corpus, seed, index)
            # A folder of its own: the runner maps its files, and a later case rewriting them
            # while a slow one still runs would pull the pages from under it (SIGBUS).
            folder = Path(scratch) / str(index)
            t0 = time.perf_counter()
            try:
                outcome, problem = check_runner(runner, case, folder, timeout)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            return index, case, outcome, problem, time.perf_counter() - t0

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for index, case, outcome, problem, took in pool.map(one, range(start, start + count)):
                stats.cases += 1
                stats.durations.append(took)
                stats.count(outcome)
                if problem is not None:
                    finding = Finding("runner", seed, index, case.what, problem, case.example.name)
                    stats.findings.append(finding)
                    save(
                        finding,
                        case.program if case.mutated_input is None else case.array,
                        findings_dir,
                    )
                if progress and stats.cases % 5000 == 0:
                    rate = stats.cases / (time.monotonic() - began)
                    print(
                        f"runner: {stats.cases} cases, {len(stats.findings)} findings, "
                        f"{rate:.1f}/s",
                        flush=True,
                    )
    return stats


def save(finding: Finding, data: bytes, findings_dir: Path | None) -> None:
    """Keep a finding's file and its description (seed and index reproduce it)."""
    if findings_dir is None:
        return
    findings_dir.mkdir(parents=True, exist_ok=True)
    stem = findings_dir / f"{finding.target}-{finding.seed}-{finding.index}"
    stem.with_suffix(".bin").write_bytes(data)
    stem.with_suffix(".json").write_text(json.dumps(finding.__dict__, indent=1) + "\n")


def chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, count) pieces of range(total)."""
    for start in range(0, total, size):
        yield start, min(size, total - start)
