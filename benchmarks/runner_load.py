"""Loading a large program: time and peak memory of runners side by side (issue 12 item 3).

Usage (from the repository root; RUNNER is a runner with aten::mm.out, e.g.
build/kernel_tests/runner, built by the kernel tests):
    python3 benchmarks/runner_load.py --runner mapped=build/kernel_tests/runner \
        --runner copied=/path/to/older/runner --repeat 5 \
        [--executorch-python /path/to/python-with-executorch]

The program, written with our `.pte` writer into build/bench/, is one `mm` of a (1, 8192)
input with a constant (8192, 16384) float weight: 512 MiB in the constant segment. Each
runner runs it, alternating, `--repeat` times two ways: "load" asks for a method the
program does not have (the runner maps or reads the file, checks the header, looks the
method up and exits 2), "run" runs the method once. Wall time is the median, peak RSS
the maximum, both from wait4() of each run. Peak RSS counts the mapped file's pages a run
touched, so "run" holds the weight once either way (mapped from the page cache, or
copied into the heap).

With `--executorch-python`, ExecuTorch 1.5.1's runtime loads the same program in the same
rounds: `Runtime.load_program` (minimal verification) and the method names, timed inside a
Python process that has already imported executorch (so its interpreter and import time are
left out, which favours it), with the growth of that process's peak RSS across the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from selective_build.codegen.model import OperatorName  # noqa: E402
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor, save_program  # noqa: E402
from selective_build.codegen.scalar_type import ScalarType  # noqa: E402

OUT = Path("build/bench")
ROWS, COLUMNS = 8192, 16384


def large_model(path: Path) -> None:
    """x (1, ROWS) @ W (ROWS, COLUMNS), W a constant of zeros: 512 MiB."""
    values = (
        Tensor(ScalarType.Float, (1, ROWS)),
        Tensor(ScalarType.Float, (ROWS, COLUMNS), constant=bytes(ROWS * COLUMNS * 4)),
        Tensor(ScalarType.Float, (1, COLUMNS)),
    )
    call = KernelCall(OperatorName.parse("aten::mm.out"), (0, 1, 2, 2))
    save_program([Method("forward", values, (0,), (2,), (call,))], path)


def measure(command: list[str], expected: int) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one run of `command`, which exits `expected`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    assert process.stderr is not None
    if os.waitstatus_to_exitcode(status) != expected:
        raise SystemExit(f"failed: {' '.join(command)}: {process.stderr.read().decode()[-500:]}")
    return elapsed, usage.ru_maxrss * 1024


# Run by the ExecuTorch Python: load the program, print seconds and peak RSS growth (bytes).
EXECUTORCH_LOAD = """
import resource, sys, time
from executorch.runtime import Runtime, Verification
runtime = Runtime.get()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
program = runtime.load_program(sys.argv[1], verification=Verification.Minimal)
names = program.method_names
elapsed = time.perf_counter() - start
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(elapsed, grown * 1024)
"""


def executorch_load(python: str, program: Path) -> tuple[float, int]:
    """Seconds and peak RSS growth (bytes) of ExecuTorch's runtime loading `program`."""
    done = subprocess.run(
        [python, "-c", EXECUTORCH_LOAD, str(program)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"failed: ExecuTorch's load: {done.stderr.strip()[-500:]}")
    seconds, grown = done.stdout.split()
    return float(seconds), int(grown)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runner", action="append", required=True, help="LABEL=PATH")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--executorch-python", help="a Python with executorch 1.5.1 installed")
    args = parser.parse_args()
    runners = dict(item.split("=", 1) for item in args.runner)
    OUT.mkdir(parents=True, exist_ok=True)
    program = OUT / "mm_512mib.pte"
    if not program.exists():
        large_model(program)
    data = OUT / "large_in0.npy"
    np.save(data, np.ones((1, ROWS), np.float32))
    ways = {
        "load": (["--method", "absent"], 2),
        "run": (["--input", str(data), "--output-dir", str(OUT)], 0),
    }
    results: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for _ in range(args.repeat):
        for way, (extra, code) in ways.items():
            for label, runner in runners.items():
                command = [runner, str(program), *extra]
                results.setdefault((label, way), []).append(measure(command, code))
        if args.executorch_python:
            load = executorch_load(args.executorch_python, program)
            results.setdefault(("ExecuTorch 1.5.1 (in process)", "load"), []).append(load)
    print(f"program: {program} ({program.stat().st_size:,} B), {args.repeat} runs each")
    print("| runner | what | median wall s | peak RSS MiB |")
    print("|---|---|---:|---:|")
    for (label, way), runs in results.items():
        wall = statistics.median(t for t, _ in runs)
        peak = max(rss for _, rss in runs) / (1 << 20)
        print(f"| {label} | {way} | {wall:.3f} | {peak:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
