"""Where a model's time goes on our runner, call by call (Note [Call profile]).

Usage (from the repository root, with the project's Python)::

    python benchmarks/call_profile.py [--models NAME ...] [--iterations 100]
        [--threads 1] [--cflags "-O2 -march=x86-64-v4"] [--top 25]

1. Builds, in a temporary copy of the repository, one include-all runner (``optimized``,
   ``portable``, ``prim``, ``quantized``) whose toolchain's cflags are ``--cflags`` plus
   ``-DRT_PROFILE_CALLS``: its runtime times every kernel call of every run.
2. Runs each model ``--iterations`` times on it and reads the runner's ``call`` lines: per
   instruction that ran a kernel, the operator, the wall and CPU time per call (the whole
   process's CPU time, so a parallel kernel's workers count) and its tensors' shapes.
3. Prints, headed by the processor, per model: the ``--top`` calls by CPU time, each with
   its share of the run and, for a convolution or a matrix product, its multiply-adds and
   the GFLOP/s it ran at; then the time by kind of call (1x1, k x k and depthwise
   convolutions, matrix products, and every other operator by name).

The calls are timed one by one with two clock reads around each (about a microsecond,
outside the timed span): the sum of the calls comes within a few percent of the runner's
whole run. Read the GFLOP/s against the processor's peak (``benchmarks/sgemm.py``) and the
shares against a reference's whole-model time (``benchmarks/latency.py``).
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
import latency  # noqa: E402

from tests.workspace import copy_repository, doit  # noqa: E402

CONV_NETS = ["mobilenet_v2", "resnet", "squeezenet", "efficientnet_b0", "speech"]
LIBRARIES = ("optimized", "portable", "prim", "quantized")
# "call PC OP calls N wall_us W cpu_us C [shape] [shape] ...", as the runner prints it.
CALL_LINE = re.compile(
    r"^call (\d+) (\S+) calls (\d+) wall_us ([\d.]+) cpu_us ([\d.]+)((?: \[[\d,]*\])*)$"
)


@dataclass(frozen=True)
class Call:
    pc: int
    op: str
    wall_us: float
    cpu_us: float
    shapes: tuple[tuple[int, ...], ...]

    @property
    def kind(self) -> str:
        """What the call is, for the summary: a convolution's shape class, else the op."""
        if self.op.startswith("aten::convolution") and len(self.shapes) >= 2:
            x, w = self.shapes[0], self.shapes[1]
            if len(w) == 4 and w[1] == 1 and len(x) == 4 and x[1] > 1:
                return "convolution, depthwise"
            if len(w) >= 3 and all(k == 1 for k in w[2:]):
                return "convolution, 1x1"
            return "convolution, k x k"
        return self.op

    @property
    def multiply_adds(self) -> int:
        """Multiply-adds of a convolution or matrix product (0 for other ops)."""
        s = self.shapes
        if self.op.startswith("aten::convolution") and len(s) >= 3:
            x, w, out = s[0], s[1], s[-1]
            return math.prod(out) * math.prod(w[1:]) if len(x) >= 3 else 0
        if self.op.startswith(("aten::addmm", "aten::linear")) and len(s) >= 3:
            inner = s[1][-1] if self.op.startswith("aten::addmm") else s[0][-1]
            return math.prod(s[-1]) * inner
        if self.op.startswith(("aten::mm", "aten::bmm")) and len(s) >= 3:
            return math.prod(s[-1]) * s[0][-1]
        return 0

    def shape_text(self) -> str:
        # The out argument is also the call's return value: shown once.
        shapes = (
            self.shapes[:-1]
            if len(self.shapes) > 1 and self.shapes[-1] == self.shapes[-2]
            else self.shapes
        )
        return " ".join("x".join(map(str, shape)) for shape in shapes)


def parse_calls(text: str) -> list[Call]:
    calls = []
    for line in text.splitlines():
        found = CALL_LINE.match(line)
        if found is None:
            continue
        shapes = tuple(
            tuple(int(d) for d in shape.split(",") if d)
            for shape in re.findall(r"\[([\d,]*)\]", found.group(6))
        )
        calls.append(
            Call(
                int(found.group(1)),
                found.group(2),
                float(found.group(4)),
                float(found.group(5)),
                shapes,
            )
        )
    return calls


def build_runner(workdir: Path, cflags: list[str], threads: int) -> Path:
    copy_repository(workdir)
    flags = ", ".join(f'"{flag}"' for flag in [*cflags, "-DRT_PROFILE_CALLS"])
    listed = ", ".join(f'"{library}"' for library in LIBRARIES)
    (workdir / "profile.toml").write_text(
        f'[toolchains.profile]\ncompiler = "c++"\ncflags = [{flags}]\nstrip = "strip"\n\n'
        f"[targets.profile]\nmodels = []\nlibraries = [{listed}]\n"
        f'toolchain = "profile"\ninclude_all_operators = true\nthreads = {threads}\n'
    )
    result = doit(workdir, "-n", "2", "manifest=profile.toml", "build", timeout=3600)
    if result.returncode != 0:
        raise SystemExit(
            f"call_profile: building the runner failed:\n{result.stdout}{result.stderr}"
        )
    return workdir / "build" / "profile" / "runner"


def profile(runner: Path, model: latency.Model, iterations: int) -> tuple[float, list[Call]]:
    """The runner's mean wall time per run (its own line) and its calls."""
    if not model.pte.is_file():
        raise SystemExit(
            f"call_profile: {model.pte}: not exported yet: run `python "
            f"benchmarks/latency_models.py export {model.name}` (it needs torch and ExecuTorch)"
        )
    run = subprocess.run(
        [*latency.runner_command(runner, model), "--iterations", str(iterations)],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"^mean time per run: ([\d.]+) us$", run.stdout, re.MULTILINE)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"call_profile: {model.name}: {run.stderr.strip() or run.stdout.strip()}")
    return float(found.group(1)), parse_calls(run.stdout)


def report(name: str, run_us: float, calls: list[Call], top: int) -> str:
    total = sum(call.cpu_us for call in calls)
    lines = [
        f"\n### {name}: {len(calls)} kernel calls, {total:,.1f} µs CPU per run "
        f"(the runner's wall mean: {run_us:,.1f} µs)\n",
        "| call | operator | shapes | CPU µs | share | GFLOP/s |",
        "|---:|---|---|---:|---:|---:|",
    ]
    for call in sorted(calls, key=lambda c: -c.cpu_us)[:top]:
        rate = f"{2 * call.multiply_adds / call.cpu_us / 1e3:.1f}" if call.multiply_adds else ""
        lines.append(
            f"| {call.pc} | {call.kind} | {call.shape_text()} | {call.cpu_us:,.1f} | "
            f"{100 * call.cpu_us / total:.1f} % | {rate} |"
        )
    kinds: dict[str, list[Call]] = {}
    for call in calls:
        kinds.setdefault(call.kind, []).append(call)
    lines += ["", "| kind | calls | CPU µs | share | GFLOP/s |", "|---|---:|---:|---:|---:|"]
    for kind, group in sorted(kinds.items(), key=lambda item: -sum(c.cpu_us for c in item[1])):
        spent = sum(c.cpu_us for c in group)
        work = sum(c.multiply_adds for c in group)
        rate = f"{2 * work / spent / 1e3:.1f}" if work and spent else ""
        lines.append(
            f"| {kind} | {len(group)} | {spent:,.1f} | {100 * spent / total:.1f} % | {rate} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", default=CONV_NETS, choices=sorted(latency.MODELS))
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cflags", default=" ".join(latency.TOOLCHAINS["host_v4"]))
    parser.add_argument("--top", type=int, default=25)
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="call-profile-") as temp:
        runner = build_runner(Path(temp), options.cflags.split(), options.threads)
        heading = f"cflags `{options.cflags}`, threads {options.threads}"
        print(f"Processor: {latency.processor()}; {heading}.")
        for name in options.models:
            run_us, calls = profile(runner, latency.find_model(name), options.iterations)
            print(report(name, run_us, calls, options.top))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
