"""The long fuzz run: `python -m tests.fuzz --reader 200000 --runner 100000`.

Builds the sanitized all-operators runner (in build/, incrementally), runs the reader cases
in this process and the runner cases `--workers` at a time, in persistent drivers (one
process runs many cases, tests/fuzz/persistent.py; `--per-case` starts a runner per case),
prints one summary line per target and exits 1 when anything was found (saved under
`--findings`). `--keep FOLDER` (tests/fuzz/corpus to commit them) adds the cases of
classes the kept corpus lacks (tests/fuzz/kept.py) to FOLDER/reader and FOLDER/runner.
`--libfuzzer SECONDS` runs the C++ loader's libFuzzer target that long (its corpus grows
in build/fuzz-libfuzzer-run/); with `--keep`, minimised into FOLDER/libfuzzer.
`--replay reader:INDEX` or `runner:INDEX` (with the run's `--seed`) re-runs one case and
prints what it did and how it ended.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from tests.fuzz import libfuzzer
from tests.fuzz.harness import (
    check_reader,
    check_runner,
    examples,
    fuzz_reader,
    fuzz_runner,
    reader_case,
    runner_case,
)
from tests.fuzz.kept import Keeper
from tests.fuzz.persistent import build_driver, fuzz_runner_persistent
from tests.fuzz.sanitized import sanitized_runner


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--reader", type=int, default=0, help="reader cases")
    parser.add_argument("--runner", type=int, default=0, help="sanitized runner cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first case index (to resume)")
    parser.add_argument("--workers", type=int, default=1, help="runner processes at a time")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run hangs")
    parser.add_argument("--time-bound", type=float, default=5.0, help="seconds per reader case")
    parser.add_argument("--findings", type=Path, default=Path("build/fuzz-findings"))
    parser.add_argument("--replay", help="reader:INDEX or runner:INDEX")
    parser.add_argument("--per-case", action="store_true", help="a runner process per case")
    parser.add_argument("--libfuzzer", type=int, default=0, help="seconds of libFuzzer")
    parser.add_argument("--keep", type=Path, help="add the interesting cases to this corpus")
    args = parser.parse_args(argv)
    if args.keep and args.per_case:
        parser.error("--keep runs the runner cases in persistent drivers: drop --per-case")
    if args.replay:
        return replay(args.replay, args.seed, args.timeout)
    found = 0
    if args.reader:
        began = time.monotonic()
        keep = Keeper() if args.keep else None
        try:  # what was kept is written even when the run is stopped (Ctrl-C)
            stats = fuzz_reader(
                args.reader, args.seed, args.time_bound, args.findings, args.start, True, keep
            )
        finally:
            _write(keep, args.keep, "reader")
        print(f"{stats.summary()}; {time.monotonic() - began:.0f} s", flush=True)
        found += len(stats.findings)
    if args.runner:
        runner = sanitized_runner()
        began = time.monotonic()
        if args.per_case:
            stats = fuzz_runner(
                runner,
                args.runner,
                args.seed,
                args.workers,
                args.timeout,
                args.findings,
                args.start,
                True,
            )
        else:
            keep = Keeper() if args.keep else None
            try:
                stats = fuzz_runner_persistent(
                    runner,
                    build_driver(runner),
                    args.runner,
                    args.seed,
                    args.workers,
                    args.timeout,
                    args.findings,
                    args.start,
                    True,
                    keep,
                )
            finally:
                _write(keep, args.keep, "runner")
        print(f"{stats.summary()}; {time.monotonic() - began:.0f} s", flush=True)
        found += len(stats.findings)
    if args.libfuzzer:
        found += _libfuzzer(args.libfuzzer, args.seed, args.keep)
    for finding in sorted(args.findings.glob("*.json")) if found else []:
        print(finding.read_text().strip())
    return 1 if found else 0


def _write(keep: Keeper | None, corpus: Path | None, target: str) -> None:
    if keep is not None and corpus is not None:
        added = keep.write(corpus / target)
        print(f"{target}: {len(keep.best)} classes, {added} cases added to {corpus / target}")


def _libfuzzer(seconds: int, seed: int, corpus: Path | None) -> int:
    """The long libFuzzer run; how many findings (crash, leak, timeout or slow files)."""
    work = Path("build/fuzz-libfuzzer-run")
    result, binary = libfuzzer.fuzz(seconds, seed, work)
    stats = [line for line in result.stderr.splitlines() if line.startswith(("stat::", "Done"))]
    artifacts = sorted((work / "artifacts").iterdir())
    print(f"libfuzzer: exit {result.returncode}; {'; '.join(stats)}", flush=True)
    for artifact in artifacts:
        print(f"libfuzzer finding: {artifact}")
    if corpus is not None:
        inputs = libfuzzer.keep(binary, work, corpus / "libfuzzer")
        print(f"libfuzzer: {inputs} inputs in {corpus / 'libfuzzer'} (minimised)")
    return len(artifacts) or int(result.returncode != 0)


def replay(which: str, seed: int, timeout: float) -> int:
    target, _, index_text = which.partition(":")
    index = int(index_text)
    corpus = examples()
    with tempfile.TemporaryDirectory() as scratch:
        if target == "reader":
            example, data, what = reader_case(corpus, seed, index)
            path = Path(scratch) / "program.pte"
            path.write_bytes(data)
            outcome, problem, _ = check_reader(path)
        else:
            case = runner_case(corpus, seed, index)
            example, what = case.example, case.what
            outcome, problem = check_runner(sanitized_runner(), case, Path(scratch), timeout)
    verdict = problem or "no finding"
    print(f"{target} {index} (seed {seed}), {example.name}: {what}: {outcome}; {verdict}")
    return 0 if problem is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
