"""Two or more runners of the same models side by side: CPU time per run, the runners
alternating in each round, so the machine's load falls on all of them alike.

Usage (from the repository root, with the project's Python)::

    python benchmarks/runner_ab.py --models resnet mobilenet_v2 --rounds 3 --iterations 60 \
        OLD/runner NEW/runner

Each measurement is latency.py's: the runner's process over `--iterations` runs less a
1-run process (loading and preparing cancel out), user + system time over the runs left;
and beside it the runner's own wall mean per run (execution alone). Prints, per runner, the
best and median round of each and its best against the first runner's: runners of one
target at 1 and 2 threads give the second thread's speed-up (wall) and what it costs (CPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import latency  # noqa: E402


def compare(runners: list[Path], model: latency.Model, rounds: int, iterations: int) -> None:
    cpu: dict[Path, list[float]] = {runner: [] for runner in runners}
    wall: dict[Path, list[float]] = {runner: [] for runner in runners}
    for _ in range(rounds):
        for runner in runners:
            timed = latency.time_on_runner(runner, model, iterations)
            cpu[runner].append(latency.cpu_per_run(runner, model, iterations, timed))
            wall[runner].append(timed.mean_us)
    base_cpu, base_wall = min(cpu[runners[0]]), min(wall[runners[0]])
    for runner in runners:
        best_cpu, best_wall = min(cpu[runner]), min(wall[runner])
        print(
            f"| {model.name} | {runner} | {best_cpu / 1e3:.3f} ms | "
            f"{statistics.median(cpu[runner]) / 1e3:.3f} ms | {best_cpu / base_cpu:.3f} | "
            f"{best_wall / 1e3:.3f} ms | {statistics.median(wall[runner]) / 1e3:.3f} ms | "
            f"{best_wall / base_wall:.3f} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runners", nargs="+", type=Path)
    parser.add_argument("--models", nargs="+", required=True, choices=sorted(latency.MODELS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=60)
    args = parser.parse_args()
    for runner in args.runners:
        if not runner.is_file():
            print(f"runner_ab: {runner}: no such runner", file=sys.stderr)
            return 2
    print(f"Processor: {latency.processor()}.\n")
    print(
        "| model | runner | CPU per run, best | median | best / first runner's "
        "| wall per run, best | median | best / first runner's |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in args.models:
        try:
            compare(args.runners, latency.find_model(name), args.rounds, args.iterations)
        except RuntimeError as error:  # a runner that failed on the model: its one line
            print(f"runner_ab: {name}: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
