"""Two profiling runners of the same model call by call: where one tree is faster than the
other, on a machine too noisy for whole runs to tell.

Usage (from the repository root, with the project's Python)::

    python benchmarks/call_ab.py BEFORE/runner AFTER/runner --model mobilenet_v2 \
        [--rounds 12] [--iterations 8] [--pin 1] [--threshold 40]

Both runners are built with ``-DRT_PROFILE_CALLS`` in their toolchain's cflags (Note [Call
profile]; ``benchmarks/call_profile.py`` builds one). Each round runs each runner once for
``--iterations`` runs, the order of the two swapped from one round to the next (on these
VMs the second process of a pair is often the slower one), each pinned to the core
``--pin`` (``taskset``; ``--pin -1`` leaves them free, as threads > 1 need). A call's time is
the least of its per-call means over the rounds. Prints the calls of more than
``--threshold`` µs in execution order, then the time by kind of call and in all, each
with AFTER / BEFORE.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import call_profile  # noqa: E402
import latency  # noqa: E402


def least_per_call(
    runners: list[Path], model: latency.Model, rounds: int, iterations: int, pin: int
) -> tuple[list[dict[int, float]], dict[int, call_profile.Call]]:
    """Per runner, each call's least wall time over the rounds; and each call as it ran."""
    best: list[dict[int, float]] = [{} for _ in runners]
    calls: dict[int, call_profile.Call] = {}
    prefix = ["taskset", "-c", str(pin)] if pin >= 0 else []
    for round_number in range(rounds):
        order = list(enumerate(runners))
        for index, runner in order if round_number % 2 == 0 else order[::-1]:
            command = [*latency.runner_command(runner, model), "--iterations", str(iterations)]
            run = subprocess.run([*prefix, *command], capture_output=True, text=True, check=False)
            if run.returncode != 0:
                raise SystemExit(f"call_ab: {runner}: {run.stderr.strip() or run.stdout.strip()}")
            found = call_profile.parse_calls(run.stdout)
            if not found:
                raise SystemExit(
                    f"call_ab: {runner}: no call lines: built without RT_PROFILE_CALLS?"
                )
            for call in found:
                best[index][call.pc] = min(best[index].get(call.pc, call.wall_us), call.wall_us)
                calls[call.pc] = call
    return best, calls


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--model", required=True, choices=sorted(latency.MODELS))
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--pin", type=int, default=1)
    parser.add_argument("--threshold", type=float, default=40.0)
    args = parser.parse_args()
    for runner in (args.before, args.after):
        if not runner.is_file():
            print(f"call_ab: {runner}: no such runner", file=sys.stderr)
            return 2
    model = latency.find_model(args.model)
    best, calls = least_per_call(
        [args.before, args.after], model, args.rounds, args.iterations, args.pin
    )
    before, after = best
    print(f"Processor: {latency.processor()}. {model.name}, least of {args.rounds} processes.\n")
    print(
        "| call | kind | shapes | before | after | after / before |\n|---:|---|---|---:|---:|---:|"
    )
    for pc in sorted(before):
        if before[pc] > args.threshold and pc in after:
            call = calls[pc]
            print(
                f"| {pc} | {call.kind} | {call.shape_text()} | {before[pc]:,.1f} µs | "
                f"{after[pc]:,.1f} µs | {after[pc] / before[pc]:.3f} |"
            )
    kinds: dict[str, list[float]] = {}
    for pc, spent in before.items():
        kinds.setdefault(calls[pc].kind, [0.0, 0.0])[0] += spent
        kinds[calls[pc].kind][1] += after.get(pc, 0.0)
    print("\n| kind | before | after | after / before |\n|---|---:|---:|---:|")
    for kind, (was, now) in sorted(kinds.items(), key=lambda item: -item[1][0]):
        print(f"| {kind} | {was:,.1f} µs | {now:,.1f} µs | {now / was:.3f} |")
    was, now = sum(before.values()), sum(after.values())
    print(f"| all calls | {was:,.1f} µs | {now:,.1f} µs | {now / was:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
