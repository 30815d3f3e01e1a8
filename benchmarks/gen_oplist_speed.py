"""Our gen_oplist against ExecuTorch's, side by side on the same files, in one run.

Usage (from the repository root):
    python3 benchmarks/gen_oplist_speed.py --executorch-python /path/to/venv/bin/python

The other Python must have executorch 1.5.1 installed. Two programs are written with our
`.pte` writer into build/bench/: a 512 MiB one (a Linear layer whose weight fills the
constant segment) and one with 12,000 kernel calls. Each tool runs on each file
`--repeat` times, alternating; wall time and peak RSS come from wait4() of each run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from codegen.model import OperatorName  # noqa: E402
from codegen.pte_writer import IntList, KernelCall, Method, Tensor, save_program  # noqa: E402
from codegen.scalar_type import ScalarType  # noqa: E402

OUT = Path("build/bench")
FLOAT = ScalarType.Float


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


def measure(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"failed: {' '.join(command)}: {process.stderr.read().decode()[-500:]}")
    return elapsed, usage.ru_maxrss * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--executorch-python", required=True)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    models = {"large (512 MiB)": OUT / "large.pte", "many calls (12,000)": OUT / "many.pte"}
    if not models["large (512 MiB)"].exists():
        large_model(models["large (512 MiB)"])
    if not models["many calls (12,000)"].exists():
        many_calls_model(models["many calls (12,000)"])
    tools = {
        "ours": [sys.executable, "-m", "codegen.gen_oplist"],
        "executorch": [args.executorch_python, "-m", "executorch.codegen.tools.gen_oplist"],
    }
    print("| model | file bytes | tool | median wall s | peak RSS MiB |")
    print("|---|---:|---|---:|---:|")
    for label, model in models.items():
        results: dict[str, list[tuple[float, int]]] = {tool: [] for tool in tools}
        for _ in range(args.repeat):
            for tool, command in tools.items():
                output = OUT / f"{model.stem}.{tool}.yaml"
                results[tool].append(
                    measure(
                        [*command, "--model_file_path", str(model), "--output_path", str(output)]
                    )
                )
        for tool, runs in results.items():
            wall = statistics.median(run[0] for run in runs)
            rss = max(run[1] for run in runs) / 2**20
            print(f"| {label} | {model.stat().st_size:,} | {tool} | {wall:.3f} | {rss:.1f} |")
        ours = statistics.median(r[0] for r in results["ours"])
        theirs = statistics.median(r[0] for r in results["executorch"])
        ours_rss = max(r[1] for r in results["ours"])
        theirs_rss = max(r[1] for r in results["executorch"])
        print(
            f"| {label} | | ours / executorch | {ours / theirs:.2f}x "
            f"| {ours_rss / theirs_rss:.2f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
