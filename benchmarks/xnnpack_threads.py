"""What a second thread gives ExecuTorch + XNNPACK on this machine: the reference for our
runner's two-thread speed-up (issue 21 asks 1.8x of it on the conv nets).

Usage (from the repository root, with a Python that has torch 2.13 and ExecuTorch 1.5.1)::

    python benchmarks/xnnpack_threads.py --models mobilenet_v2 resnet --rounds 4

Each measurement is a process of its own (ExecuTorch's thread pool is sized once per
process): the model's XNNPACK program (latency_models.xnnpack_program, the same one
latency.py times) loaded with a pool of 1 or 2 threads, one warm-up call, then calls for
`--seconds`; the processes alternate between 1 and 2 threads in each round. Prints per
model and thread count the least and the median of the rounds' median wall per call, and
CPU per call (the process's, over the timed calls), then the speed-up of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import latency  # noqa: E402


def measure(name: str, threads: int, seconds: float) -> dict[str, float]:
    """In this process: the median wall and mean CPU per call of `name`'s XNNPACK program
    on a pool of `threads`, in ms."""
    import latency_models
    import numpy as np
    import torch
    from executorch.extension.pybindings import portable_lib
    from executorch.runtime import Runtime

    portable_lib._unsafe_reset_threadpool(threads)
    model = latency.find_model(name)
    inputs = [torch.from_numpy(np.load(path)) for path in model.inputs]
    program = Runtime.get().load_program(latency_models.xnnpack_program(name))
    method = program.load_method("forward")
    if method is None:
        raise SystemExit(f"xnnpack_threads: {name}: its program has no forward method")
    method.execute(inputs)  # warm-up: first-call allocations are not timed
    walls: list[float] = []
    cpu_start, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        began = time.perf_counter()
        method.execute(inputs)
        walls.append(time.perf_counter() - began)
    cpu = (time.process_time() - cpu_start) / len(walls)
    return {"wall_ms": statistics.median(walls) * 1e3, "cpu_ms": cpu * 1e3}


def in_process(name: str, threads: int, seconds: float) -> dict[str, float]:
    """measure() in a process of its own (one pool size per process)."""
    run = subprocess.run(
        [sys.executable, __file__, "--measure", name, str(threads), str(seconds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        lines = (run.stderr or run.stdout).strip().splitlines() or ["no message"]
        raise SystemExit(f"xnnpack_threads: {name}, {threads} threads: {lines[-1]}")
    result: dict[str, float] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["mobilenet_v2", "resnet"])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--measure", nargs=3, metavar=("MODEL", "THREADS", "SECONDS"))
    args = parser.parse_args()
    if args.measure:
        name, threads, seconds = args.measure
        print(json.dumps(measure(name, int(threads), float(seconds))))
        return 0
    unknown = sorted(set(args.models) - set(latency.MODELS))
    if unknown:
        print(f"xnnpack_threads: unknown model {unknown[0]!r}", file=sys.stderr)
        return 2
    print(f"Processor: {latency.processor()}.\n")
    print(
        "| model | wall, 1 thread: least / median round | 2 threads | speed-up (medians) "
        "| CPU, 1 thread | 2 threads |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in args.models:
        rounds: dict[int, list[dict[str, float]]] = {1: [], 2: []}
        for _ in range(args.rounds):
            for threads in (1, 2):
                rounds[threads].append(in_process(name, threads, args.seconds))
        wall = {t: [r["wall_ms"] for r in rounds[t]] for t in rounds}
        cpu = {t: statistics.median(r["cpu_ms"] for r in rounds[t]) for t in rounds}
        print(
            f"| {name} | {min(wall[1]):.2f} / {statistics.median(wall[1]):.2f} ms "
            f"| {min(wall[2]):.2f} / {statistics.median(wall[2]):.2f} ms "
            f"| {statistics.median(wall[1]) / statistics.median(wall[2]):.2f} "
            f"| {cpu[1]:.2f} ms | {cpu[2]:.2f} ms |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
