"""Our gen_oplist against ExecuTorch's, side by side on the same files, in one run.

Usage (from the repository root):
    python3 benchmarks/gen_oplist_speed.py --executorch-python /path/to/venv/bin/python

Run it with the Python the project is installed in (the README's `.venv/bin/python`): ours
runs as `sys.executable -m selective_build.codegen.gen_oplist`. The other Python must have
executorch 1.5.1 installed. Programs are written with our `.pte` writer into build/bench/: a
512 MiB one (a Linear layer whose weight fills the constant segment), one with 12,000 kernel
calls over a few tensors, and layered ones with 100,000 and 300,000 kernel calls
(`--calls`), each call on its own tensors as in an exported model with that many layers.

Three commands run on each file `--repeat` times, alternating: ours (the C reader), ours
with the C reader hidden (the numpy fallback) and ExecuTorch's; wall time, CPU time and
peak RSS come from wait4() of each run, and the three YAML files must be byte-identical.
A fourth row times the `model_ops` task's action (`tasks.models.write_model_ops`) inside a
process that has already imported it, as doit runs it: reading and writing only.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from selective_build.codegen.model import OperatorName  # noqa: E402
from selective_build.codegen.pte.writer import IntList, KernelCall, Method, Tensor, save_program  # noqa: E402
from selective_build.codegen.scalar_type import ScalarType  # noqa: E402

OUT = Path("build/bench")
FLOAT = ScalarType.Float
# Our gen_oplist with the C reader hidden: the numpy fallback a machine without a C
# compiler gets.
FALLBACK = (
    "import sys; import selective_build.codegen.pte.native as native; native.MODULE = None; "
    "from selective_build.codegen.gen_oplist import main; sys.exit(main(sys.argv[1:]))"
)
# The model_ops task's action, timed around the call only (doit has imported it already).
MODEL_OPS = (
    "import sys, time; from pathlib import Path; "
    "from selective_build.tasks.models import write_model_ops; "
    "model, out = Path(sys.argv[1]), Path(sys.argv[2]); "
    "wall, cpu = time.perf_counter(), time.process_time(); "
    "assert write_model_ops(model, out, out.with_suffix('.json')); "
    "print(time.perf_counter() - wall, time.process_time() - cpu)"
)


def large_model(path: Path, rows: int = 16384, columns: int = 8192) -> None:
    """x (1, columns) @ W.T + b with W (rows, columns) stored as a constant: 512 MiB."""
    weight = Tensor(FLOAT, (rows, columns), constant=bytes(rows * columns * 4))
    bias = Tensor(FLOAT, (rows,), constant=bytes(rows * 4))
    values = (
        Tensor(FLOAT, (1, columns)),
        weight,
        bias,
        IntList((1, 0)),
        Tensor(FLOAT, (columns, rows)),
        1,
        1,
        Tensor(FLOAT, (1, rows)),
    )
    calls = (
        KernelCall(OperatorName.parse("aten::permute_copy.out"), (1, 3, 4, 4)),
        KernelCall(OperatorName.parse("aten::addmm.out"), (2, 0, 4, 5, 6, 7, 7)),
    )
    save_program([Method("forward", values, (0,), (7,), calls)], path)


def many_calls_model(path: Path, calls: int = 12_000) -> None:
    """A chain of add/mul/relu calls over a few tensors of several dtypes."""
    values = (
        Tensor(FLOAT, (4, 4)),
        Tensor(FLOAT, (4, 4)),
        1,
        Tensor(ScalarType.Long, (8,)),
        Tensor(ScalarType.Long, (8,)),
    )
    ops = [OperatorName.parse(n) for n in ("aten::add.out", "aten::mul.out", "aten::relu.out")]
    chain = []
    for index in range(calls):
        op = ops[index % 3]
        if op.name == "add":
            chain.append(KernelCall(op, (0, 1, 2, 1, 1) if index % 2 else (3, 4, 2, 4, 4)))
        elif op.name == "mul":
            chain.append(KernelCall(op, (0, 1, 1, 1)))
        else:
            chain.append(KernelCall(op, (1, 0, 0)))
    save_program([Method("forward", values, (0,), (1,), tuple(chain))], path)


def layered_model(path: Path, calls: int) -> None:
    """`calls` add/mul/relu calls in a chain, each writing a new tensor from a new weight
    (every 50th one Long): the value and argument layout of a deep exported network."""
    ops = [OperatorName.parse(n) for n in ("aten::add.out", "aten::mul.out", "aten::relu.out")]
    values: list[Tensor | int] = [1, Tensor(FLOAT, (4, 4))]
    chain = []
    current = 1
    for index in range(calls):
        dtype = ScalarType.Long if index % 50 == 0 else FLOAT
        values += [Tensor(dtype, (4, 4)), Tensor(dtype, (4, 4))]
        weight, out = len(values) - 2, len(values) - 1
        op = ops[index % 3]
        if op.name == "add":
            chain.append(KernelCall(op, (current, weight, 0, out, out)))
        elif op.name == "mul":
            chain.append(KernelCall(op, (current, weight, out, out)))
        else:
            chain.append(KernelCall(op, (current, out, out)))
        current = out
    save_program([Method("forward", tuple(values), (1,), (current,), tuple(chain))], path)


def _slug(tool: str) -> str:
    return tool.replace(",", "").replace(" ", "-")


def model_ops_time(model: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the model_ops task's action on `model`, measured inside
    the process around the call (the interpreter and its imports excluded)."""
    output = OUT / f"{model.stem}.model-ops.yaml"
    result = subprocess.run(
        [sys.executable, "-c", MODEL_OPS, str(model), str(output)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"model_ops failed on {model}: {result.stderr[-500:]}")
    wall, cpu = (float(text) for text in result.stdout.split())
    return wall, cpu


def measure(command: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS (bytes) of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"failed: {' '.join(command)}: {process.stderr.read().decode()[-500:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--executorch-python", required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", default="100000,300000", help="layered programs' sizes")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    models: dict[str, tuple[Path, Callable[[Path], None]]] = {
        "large (512 MiB)": (OUT / "large.pte", large_model),
        "many calls (12,000)": (OUT / "many.pte", many_calls_model),
    }
    for calls in (int(text) for text in args.calls.split(",")):
        models[f"layered ({calls:,} calls)"] = (
            OUT / f"layered-{calls}.pte",
            lambda path, calls=calls: layered_model(path, calls),
        )
    for path, make in models.values():
        if not path.exists():  # slow to write (minutes at 300,000 calls): kept between runs
            make(path)
    tools = {
        "ours": [sys.executable, "-m", "selective_build.codegen.gen_oplist"],
        "ours, numpy fallback": [sys.executable, "-c", FALLBACK],
        "executorch": [args.executorch_python, "-m", "executorch.codegen.tools.gen_oplist"],
    }
    # The model_ops task needs doit: in a Python without the project installed (a system
    # python3 running gen_oplist from the checkout) its rows are left out.
    with_model_ops = importlib.util.find_spec("doit") is not None
    if not with_model_ops:
        print("(doit is not installed in this Python: no model_ops rows)")
    print("| model | file bytes | tool | median wall s | median CPU s | peak RSS MiB |")
    print("|---|---:|---|---:|---:|---:|")
    for label, (model, _) in models.items():
        results: dict[str, list[tuple[float, float, int]]] = {tool: [] for tool in tools}
        in_process: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            for tool, command in tools.items():
                output = OUT / f"{model.stem}.{_slug(tool)}.yaml"
                results[tool].append(
                    measure(
                        [*command, "--model_file_path", str(model), "--output_path", str(output)]
                    )
                )
            if with_model_ops:
                in_process.append(model_ops_time(model))
        outputs = {(OUT / f"{model.stem}.{_slug(tool)}.yaml").read_bytes() for tool in tools}
        same = "identical" if len(outputs) == 1 else "DIFFERENT"
        medians = {}
        for tool, runs in results.items():
            wall = statistics.median(run[0] for run in runs)
            cpu = statistics.median(run[1] for run in runs)
            rss = max(run[2] for run in runs)
            medians[tool] = (wall, cpu, rss)
            print(
                f"| {label} | {model.stat().st_size:,} | {tool} | {wall:.3f} | {cpu:.3f} "
                f"| {rss / 2**20:.1f} |"
            )
        theirs = medians["executorch"]
        for tool in ("ours", "ours, numpy fallback"):
            ours = medians[tool]
            print(
                f"| {label} | | {tool} / executorch (outputs {same}) "
                f"| **{ours[0] / theirs[0]:.2f}x** | **{ours[1] / theirs[1]:.2f}x** "
                f"| {ours[2] / theirs[2]:.2f}x |"
            )
        if in_process:
            wall = statistics.median(run[0] for run in in_process)
            cpu = statistics.median(run[1] for run in in_process)
            print(f"| {label} | | ours, model_ops task (in-process) | {wall:.4f} | {cpu:.4f} | |")
            print(
                f"| {label} | | model_ops task / executorch | **{wall / theirs[0]:.3f}x** "
                f"| **{cpu / theirs[1]:.3f}x** | |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
