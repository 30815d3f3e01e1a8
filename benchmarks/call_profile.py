"""Where a model's time goes on our runner, call by call (Note [Call profile]).

Usage (from the repository root, with the project's Python)::

    python benchmarks/call_profile.py [--models NAME ...] [--iterations 100]
        [--threads 1] [--cflags "-O2 -march=x86-64-v4"] [--top 25] [--xnnpack PYTHON]

1. Builds, in a temporary copy of the repository, one include-all runner (``optimized``,
   ``portable``, ``prim``, ``quantized``) whose toolchain's cflags are ``--cflags`` plus
   ``-DRT_PROFILE_CALLS``: its runtime times every kernel call of every run.
2. Runs each model ``--iterations`` times on it and reads the runner's ``call`` lines: per
   instruction that ran a kernel, the operator, its wall time per call (the steady clock:
   Note [Call profile] says why not CPU time; profile on a quiet machine) and its tensors'
   shapes.
3. Prints, headed by the processor, per model: the ``--top`` calls by time, each with
   its share of the run and, for a convolution or a matrix product, its multiply-adds and
   the GFLOP/s it ran at; then the time by kind of call (1x1, k x k and depthwise
   convolutions, matrix products, and every other operator by name).
4. With ``--xnnpack PYTHON`` (torch 2.13 and ExecuTorch 1.5.1 in it): the model's
   XNNPACK-lowered program (``latency_models.py xnnpack``, cached) profiled by ExecuTorch's
   event tracer (``benchmarks/xnnpack_ops.py``: XNNPACK's own wall time per operator,
   medians over ``--iterations`` runs), its time by operator kind, and our convolutions and
   products beside its own in execution order, with the ratio of each.

The calls are timed one by one with two clock reads around each (about a microsecond,
outside the timed span): the sum of the calls comes within a few percent of the runner's
whole run. Read the GFLOP/s against the processor's peak (``benchmarks/sgemm.py``) and the
shares against a reference's whole-model time (``benchmarks/latency.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
import latency  # noqa: E402

from tests.workspace import copy_repository, doit  # noqa: E402

Item = TypeVar("Item")
CONV_NETS = ["mobilenet_v2", "resnet", "squeezenet", "efficientnet_b0", "speech"]
LIBRARIES = ("optimized", "portable", "prim", "quantized")
# "call PC OP calls N wall_us W [shape] [shape] ...", as the runner prints it.
CALL_LINE = re.compile(r"^call (\d+) (\S+) calls (\d+) wall_us ([\d.]+)((?: \[[\d,]*\])*)$")


@dataclass(frozen=True)
class Call:
    pc: int
    op: str
    wall_us: float
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
            for shape in re.findall(r"\[([\d,]*)\]", found.group(5))
        )
        calls.append(
            Call(
                int(found.group(1)),
                found.group(2),
                float(found.group(4)),
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


def by_kind(
    items: list[Item], kind: Callable[[Item], str], time: Callable[[Item], float]
) -> list[tuple[str, list[Item], float]]:
    """`items` grouped by kind, each group with its summed time, the largest first."""
    groups: dict[str, list[Item]] = {}
    for item in items:
        groups.setdefault(kind(item), []).append(item)
    summed = [(name, group, sum(map(time, group))) for name, group in groups.items()]
    return sorted(summed, key=lambda entry: -entry[2])


def report(name: str, run_us: float, calls: list[Call], top: int) -> str:
    total = sum(call.wall_us for call in calls)
    lines = [
        f"\n### {name}: {len(calls)} kernel calls, {total:,.1f} µs per run "
        f"(the runner's wall mean: {run_us:,.1f} µs)\n",
        "| call | operator | shapes | µs | share | GFLOP/s |",
        "|---:|---|---|---:|---:|---:|",
    ]
    for call in sorted(calls, key=lambda c: -c.wall_us)[:top]:
        rate = f"{2 * call.multiply_adds / call.wall_us / 1e3:.1f}" if call.multiply_adds else ""
        lines.append(
            f"| {call.pc} | {call.kind} | {call.shape_text()} | {call.wall_us:,.1f} | "
            f"{100 * call.wall_us / total:.1f} % | {rate} |"
        )
    lines += ["", "| kind | calls | µs | share | GFLOP/s |", "|---|---:|---:|---:|---:|"]
    for kind, group, spent in by_kind(calls, lambda c: c.kind, lambda c: c.wall_us):
        work = sum(c.multiply_adds for c in group)
        rate = f"{2 * work / spent / 1e3:.1f}" if work and spent else ""
        lines.append(
            f"| {kind} | {len(group)} | {spent:,.1f} | {100 * spent / total:.1f} % | {rate} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- XNNPACK


@dataclass(frozen=True)
class XnnpackOp:
    name: str  # "Convolution (NHWC, F32) IGEMM #3"
    median_us: float

    @property
    def kind(self) -> str:
        return self.name.split(" #")[0]

    @property
    def layer(self) -> bool:
        """A convolution or matrix product: what our convolution and matrix calls are."""
        return self.name.startswith(("Convolution", "Fully Connected", "Batch Matrix"))


def xnnpack_ops(
    python: str, model: latency.Model, iterations: int
) -> tuple[float, list[XnnpackOp]]:
    """XNNPACK's median time per operator on the model's XNNPACK-lowered program
    (benchmarks/xnnpack_ops.py under `python`), and the method's median."""
    latency.lower_to_xnnpack(python, [model.name])
    lowered = latency.program_for("executorch_xnnpack", model)
    if lowered is None:
        raise SystemExit(f"call_profile: {model.name}: it did not lower to XNNPACK")
    command = [python, str(HERE / "xnnpack_ops.py"), str(lowered.pte), *map(str, model.inputs)]
    run = subprocess.run(
        [*command, "--iterations", str(iterations)], capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        failure = latency._one_line(run.stderr)
        raise SystemExit(f"call_profile: {lowered.pte}: XNNPACK's profile failed: {failure}")
    reply = json.loads(run.stdout)
    ops = [XnnpackOp(op["name"], float(op["median_us"])) for op in reply["operators"]]
    return float(reply["method_us"]), ops


def comparison(calls: list[Call], method_us: float, ops: list[XnnpackOp]) -> str:
    """XNNPACK's time by operator kind, then our convolutions and matrix products beside its
    own, paired in execution order where both have as many."""
    total = sum(op.median_us for op in ops)
    lines = [
        f"\nXNNPACK: {len(ops)} operators, {total:,.1f} µs (medians; the method's median "
        f"{method_us:,.1f} µs)\n",
        "| XNNPACK operator | count | µs | share |",
        "|---|---:|---:|---:|",
    ]
    for kind, group, spent in by_kind(ops, lambda o: o.kind, lambda o: o.median_us):
        lines.append(f"| {kind} | {len(group)} | {spent:,.1f} | {100 * spent / total:.1f} % |")
    ours = [c for c in calls if c.multiply_adds > 0]
    theirs = [op for op in ops if op.layer]
    if len(ours) != len(theirs):
        counts = f"{len(ours)} convolutions and products of ours, {len(theirs)} of XNNPACK's"
        lines.append(f"\n({counts}: not paired)")
        return "\n".join(lines)
    lines += [
        "",
        "| # | ours | shapes | ours µs | XNNPACK | XNNPACK µs | ours / XNNPACK |",
        "|---:|---|---|---:|---|---:|---:|",
    ]
    for index, (call, op) in enumerate(zip(ours, theirs, strict=True)):
        ratio = call.wall_us / op.median_us if op.median_us > 0 else math.inf
        lines.append(
            f"| {index} | {call.kind} | {call.shape_text()} | {call.wall_us:,.1f} | {op.name} | "
            f"{op.median_us:,.1f} | {ratio:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", default=CONV_NETS, choices=sorted(latency.MODELS))
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cflags", default=" ".join(latency.TOOLCHAINS["host_v4"]))
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--xnnpack",
        metavar="PYTHON",
        help="a Python with torch and ExecuTorch: also profile each model's XNNPACK program",
    )
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="call-profile-") as temp:
        runner = build_runner(Path(temp), options.cflags.split(), options.threads)
        heading = f"cflags `{options.cflags}`, threads {options.threads}"
        print(f"Processor: {latency.processor()}; {heading}.")
        for name in options.models:
            model = latency.find_model(name)
            run_us, calls = profile(runner, model, options.iterations)
            print(report(name, run_us, calls, options.top))
            if options.xnnpack:
                method_us, ops = xnnpack_ops(options.xnnpack, model, options.iterations)
                print(comparison(calls, method_us, ops))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
