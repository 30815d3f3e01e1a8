"""The optimized library's elementwise, activation, normalisation, reduction and data-movement
kernels, one operator at a time at model-like sizes: optimized vs portable vs torch eager.

Usage (from the repository root, with the project's Python)::

    python benchmarks/kernels_elem.py [--et-python /work/et-venv/bin/python] [--rounds 3]
        [--seconds 0.2] [--models NAME ...] [--baseline CHECKOUT]
        [--no-kernels | --cases LABEL ...] [--output FILE.md]

1. Builds, in a temporary copy of the repository, three include-all runners: `portable`
   (`["portable", "prim"]`, the host toolchain's `-Os`, as the default manifest ships it),
   `optimized` (`["optimized"]`, at the library's own `-O2`; no `-m` flags: SSE2 vectors
   on x86-64) and `optimized_avx2` (the same with `-mavx2 -mfma`, the SIMD level an x86
   toolchain names for a recent CPU).
2. Writes one single-call program per case with our `.pte` writer (the kernel tests'
   harness), checks that both runners give the same outputs (the tolerance table), then
   times, in `--rounds` rounds with the engines in rotating order, each runner's
   `--iterations N` (execute() alone; the inputs are set before every run, untimed) and
   torch eager's call of the same operator with `out=` (one thread, `inference_mode`) in a
   long-lived worker of `--et-python`.
3. With `--models`, also builds each named model (`examples/models/` or the latency
   benchmark's cache `benchmarks/models/`) into one target per runner configuration
   (`["portable", "prim"]` at `-Os`; `["optimized", "portable", "prim"]` with the `-Os`
   toolchain and with `-Os -mavx2 -mfma`, the optimized objects at the library's own
   `-O2`, the rest at `-Os`, as a target ships them), which the build verifies against the
   model's reference outputs, and times each with `--iterations N`, and torch eager's
   forward of the same module and inputs (benchmarks/latency_models.py's `eager`, one
   thread, `inference_mode`, after a warm-up call) in another worker of `--et-python`, all
   in the same rotating rounds. `--baseline CHECKOUT` (another checkout of the project,
   such as `git worktree add /tmp/before <commit>`) adds that checkout's own build of
   each model (optimized + portable, AVX2), timed in the same rounds: before and after.
4. Prints a Markdown table: per case the best per-call time of each engine (the minimum
   over all runs: the machine is shared, and the minimum is what the code costs), the
   speed-up of each optimized build over portable and the AVX2 build's time over torch's
   (torch picks its vector width at run time: AVX2 or AVX-512 here).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

MAX_ITERATIONS = 5000
RUNNERS = ("portable", "optimized", "optimized_avx2")
ENGINES = (*RUNNERS, "torch")
_MIN = re.compile(r"^min time per run: ([0-9.]+) us$", re.MULTILINE)


@dataclass(frozen=True)
class Case:
    """One call: `op` (ours) on float32 inputs of `shapes`, with `params`; `torch` is the
    expression the torch worker evaluates (inputs x0, x1...; `out` preallocated)."""

    label: str
    op: str
    shapes: tuple[tuple[int, ...], ...]
    params: tuple[Any, ...]
    torch: str
    out_shape: tuple[int, ...]
    extra_outs: tuple[tuple[int, ...], ...] = ()
    int_input: int | None = None  # an index input of int64 values below this bound
    int_list: tuple[int, ...] | None = None  # the call's int[] argument (dims)
    list_input: bool = False  # the inputs form one Tensor[] argument (cat)


D, T, FF = 256, 64, 1024  # the transformer's width, sequence and feed-forward widths
CASES: list[Case] = [
    Case(
        "add, same shape",
        "aten::add.out",
        ((T, D), (T, D)),
        (1,),
        "torch.add(x0, x1, out=out)",
        (T, D),
    ),
    Case(
        "add, row bias",
        "aten::add.out",
        ((T, FF), (FF,)),
        (1,),
        "torch.add(x0, x1, out=out)",
        (T, FF),
    ),
    Case(
        "mul, column (RMSNorm)",
        "aten::mul.out",
        ((T, D), (T, 1)),
        (),
        "torch.mul(x0, x1, out=out)",
        (T, D),
    ),
    Case(
        "mul.Scalar",
        "aten::mul.Scalar_out",
        ((T, D),),
        (0.125,),
        "torch.mul(x0, 0.125, out=out)",
        (T, D),
    ),
    Case(
        "div, same shape",
        "aten::div.out",
        ((T, D), (T, D)),
        (),
        "torch.div(x0, x1, out=out)",
        (T, D),
    ),
    Case("relu", "aten::relu.out", ((T, FF),), (), "torch.clamp_min(x0, 0, out=out)", (T, FF)),
    Case(
        "hardtanh (relu6), MobileNet block",
        "aten::hardtanh.out",
        ((1, 32, 56, 56),),
        (0.0, 6.0),
        "torch._C._nn.hardtanh(x0, 0.0, 6.0, out=out)",
        (1, 32, 56, 56),
    ),
    Case("sigmoid", "aten::sigmoid.out", ((T, FF),), (), "torch.sigmoid(x0, out=out)", (T, FF)),
    Case("tanh", "aten::tanh.out", ((T, FF),), (), "torch.tanh(x0, out=out)", (T, FF)),
    Case(
        "gelu (erf)",
        "aten::gelu.out",
        ((T, FF),),
        ("none",),
        "torch._C._nn.gelu(x0, approximate='none', out=out)",
        (T, FF),
    ),
    Case(
        "gelu (tanh)",
        "aten::gelu.out",
        ((T, FF),),
        ("tanh",),
        "torch._C._nn.gelu(x0, approximate='tanh', out=out)",
        (T, FF),
    ),
    Case(
        "softmax, attention rows",
        "aten::_softmax.out",
        ((4, T, T),),
        (-1, False),
        "torch.softmax(x0, -1, out=out)",
        (4, T, T),
    ),
    Case(
        "log_softmax, 1000 classes",
        "aten::_log_softmax.out",
        ((T, 1000),),
        (-1, False),
        "torch.log_softmax(x0, -1, out=out)",
        (T, 1000),
    ),
    Case(
        "native_layer_norm",
        "aten::native_layer_norm.out",
        ((T, D), (D,), (D,)),
        ((D,), 1e-5),
        "torch.native_layer_norm(x0, [D], x1, x2, 1e-5)",
        (T, D),
        extra_outs=((T, 1), (T, 1)),
    ),
    Case(
        "mean, last dim (RMSNorm)",
        "aten::mean.out",
        ((T, D),),
        ((-1,), True, None),
        "torch.mean(x0, -1, keepdim=True, out=out)",
        (T, 1),
    ),
    Case(
        "sum, all dims",
        "aten::sum.IntList_out",
        ((T, FF),),
        (None, False, None),
        "torch.sum(x0, (0, 1), out=out)",
        (),
    ),
    Case(
        "permute_copy, weight transpose",
        "aten::permute_copy.out",
        ((FF, D),),
        (),
        "torch.permute_copy(x0, (1, 0), out=out)",
        (D, FF),
        int_list=(1, 0),
    ),
    Case(
        "permute_copy, heads",
        "aten::permute_copy.out",
        ((1, T, 4, T),),
        (),
        "torch.permute_copy(x0, (0, 2, 1, 3), out=out)",
        (1, 4, T, T),
        int_list=(0, 2, 1, 3),
    ),
    Case(
        "embedding, 64 of 4096 rows",
        "aten::embedding.out",
        ((4096, D),),
        (-1, False, False),
        "torch.index_select(x0, 0, i1, out=out)",
        (T, D),
        int_input=4096,
    ),
    Case(
        "cat, RoPE halves",
        "aten::cat.out",
        ((1, 8, T, 32), (1, 8, T, 32)),
        (-1,),
        "torch.cat((x0, x1), -1, out=out)",
        (1, 8, T, 64),
        list_input=True,
    ),
    Case(
        "_clone_dim_order",
        "dim_order_ops::_clone_dim_order.out",
        ((T, FF),),
        (False, None),
        "out.copy_(x0)",
        (T, FF),
    ),
]


# Whole models: configuration -> (toolchain, libraries).
MODEL_CONFIGURATIONS: dict[str, tuple[str, list[str]]] = {
    "portable": ("host", ["portable", "prim"]),
    "optimized": ("opt", ["optimized", "portable", "prim"]),
    "optimized_avx2": ("avx2", ["optimized", "portable", "prim"]),
}


def model_folder(name: str) -> Path:
    for root in (REPO / "examples" / "models", REPO / "benchmarks" / "models"):
        if (root / name / f"{name}.pte").is_file():
            return root / name
    raise SystemExit(f"no model {name} in examples/models or benchmarks/models")


def models_manifest(names: Sequence[str], configurations: Sequence[str] = ()) -> str:
    """Model tables (absolute paths: the cache is not copied) and one target per model and
    configuration (all of MODEL_CONFIGURATIONS unless named), <model>__<configuration>."""
    lines = []
    for name in names:
        folder = model_folder(name)
        inputs = sorted(folder.glob("in[0-9]*.npy"), key=lambda p: int(p.stem[2:]))
        outputs = sorted(folder.glob("out[0-9]*.npy"), key=lambda p: int(p.stem[3:]))
        lines += [
            f"[models.{name}]",
            f'path = "{folder / (name + ".pte")}"',
            f"inputs = {json.dumps([str(p) for p in inputs])}",
            f"outputs = {json.dumps([str(p) for p in outputs])}",
            "",
        ]
        for config, (toolchain, libraries) in MODEL_CONFIGURATIONS.items():
            if configurations and config not in configurations:
                continue
            lines += [
                f"[targets.{name}__{config}]",
                f'models = ["{name}"]',
                f"libraries = {json.dumps(libraries)}",
                f'toolchain = "{toolchain}"',
                "dtype_selective = true",
                "",
            ]
    return "\n".join(lines)


def toolchains_text() -> str:
    return """# Written by benchmarks/kernels_elem.py.
[toolchains.host]
compiler = "c++"
cflags = ["-Os"]
strip = "strip"

# The optimized library's objects get its own -O2 (Note [Library cflags]) after these;
# the portable kernels a model target also links stay at -Os, as a target ships them.
[toolchains.opt]
compiler = "c++"
cflags = ["-Os"]
strip = "strip"

[toolchains.avx2]
compiler = "c++"
cflags = ["-Os", "-mavx2", "-mfma"]
strip = "strip"
"""


def manifest_text(models: Sequence[str] = ()) -> str:
    return (
        toolchains_text()
        + """
[targets.portable]
libraries = ["portable", "prim"]
include_all_operators = true

[targets.optimized]
libraries = ["optimized"]
include_all_operators = true
toolchain = "opt"

[targets.optimized_avx2]
libraries = ["optimized"]
include_all_operators = true
toolchain = "avx2"

"""
        + models_manifest(models)
    )


def build_runners(workdir: Path, models: Sequence[str] = ()) -> dict[str, Path]:
    """The three include-all runners by configuration, and <model>__<configuration> ones."""
    from tests.workspace import copy_repository, doit

    copy_repository(workdir)
    (workdir / "bench.toml").write_text(manifest_text(models))
    result = doit(workdir, "-n", "2", "manifest=bench.toml", "build", timeout=3600)
    if result.returncode != 0:
        raise SystemExit(f"building the runners failed:\n{result.stdout}{result.stderr}")
    names = [*RUNNERS, *(f"{m}__{c}" for m in models for c in MODEL_CONFIGURATIONS)]
    return {name: workdir / "build" / name / "runner" for name in names}


# The configuration a --baseline checkout builds: the one the models' goal is measured on.
BASELINE_CONFIGURATION = "optimized_avx2"


def build_baseline(checkout: Path, workdir: Path, models: Sequence[str]) -> dict[str, Path]:
    """<model>__baseline runners: the models in BASELINE_CONFIGURATION built by another
    checkout of the project (its own code and kernels: `python -m doit` imports the
    copy's codegen and tasks), for a before/after column timed in the same rounds."""
    from tests.workspace import COPIED, doit

    for name in COPIED:
        source = checkout / name
        if name == "benchmarks" or not source.exists():
            continue
        if source.is_dir():
            shutil.copytree(source, workdir / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, workdir / name)
    (workdir / "bench.toml").write_text(
        toolchains_text() + "\n" + models_manifest(models, [BASELINE_CONFIGURATION])
    )
    result = doit(workdir, "-n", "2", "manifest=bench.toml", "build", timeout=3600)
    if result.returncode != 0:
        raise SystemExit(f"building the baseline failed:\n{result.stdout}{result.stderr}")
    return {
        f"{m}__baseline": workdir / "build" / f"{m}__{BASELINE_CONFIGURATION}" / "runner"
        for m in models
    }


def case_args(case: Case) -> tuple[list[object], list[Any]]:
    """Our call's arguments (harness form) and the input arrays, seeded per case."""
    import numpy as np

    from selective_build.codegen.pte.writer import IntList
    from tests.kernels.harness import In, InList, Out

    rng = np.random.default_rng(len(case.label))
    arrays: list[Any] = [rng.standard_normal(shape).astype(np.float32) for shape in case.shapes]
    args: list[object]
    if case.list_input:
        args = [InList(tuple(arrays))]
    elif case.op == "aten::native_layer_norm.out":
        args = [In(arrays[0]), IntList(case.params[0]), In(arrays[1]), In(arrays[2])]
        args += [case.params[1]]
        outs = [case.out_shape, *case.extra_outs]
        return args + [Out(np.float32, shape) for shape in outs], arrays
    else:
        args = [In(array) for array in arrays]
    if case.int_input is not None:
        indices = rng.integers(0, case.int_input, size=(T,)).astype(np.int64)
        args.append(In(indices))
        arrays.append(indices)
    if case.int_list is not None:
        args.append(IntList(case.int_list))
    params = [IntList(p) if isinstance(p, tuple) else p for p in case.params]
    return args + params + [Out(np.float32, case.out_shape)], arrays


class Runners:
    """Writes each case's program once and times it on one of our runners."""

    def __init__(self, runners: dict[str, Path], scratch: Path) -> None:
        self.runners = runners
        self.scratch = scratch

    def program(self, case: Case) -> tuple[Path, list[Path]]:
        from tests.kernels.harness import KernelRunner

        folder = self.scratch / re.sub(r"\W+", "_", case.label)
        folder.mkdir(exist_ok=True)
        program = folder / "program.pte"
        args, _ = case_args(case)
        # The harness writes the program and the inputs, and runs it once on each runner:
        # both must give the same outputs before anything is timed.
        outputs = {}
        for name in RUNNERS:
            outputs[name] = KernelRunner(self.runners[name], folder).run(case.op, args)
        check_same(case, outputs["optimized"], outputs["portable"])
        check_same(case, outputs["optimized_avx2"], outputs["portable"])
        inputs = sorted(folder.glob("in*.npy"), key=lambda path: int(path.stem[2:]))
        return program, inputs

    def time(self, name: str, program: Path, inputs: Sequence[Path], seconds: float) -> float:
        """The fastest execute() in about `seconds` of runs, in microseconds."""
        command = [str(self.runners[name]), str(program)]
        for path in inputs:
            command += ["--input", str(path)]
        first = _run_min(command, 3)
        # The runner reads its input files again before every run (untimed, but slow for
        # a large table): at most about 64 MB of them per timing.
        read = sum(path.stat().st_size for path in inputs)
        cap = max(3, min(MAX_ITERATIONS, (64 << 20) // max(read, 1)))
        iterations = max(3, min(cap, int(seconds * 1e6 / max(first, 1.0))))
        return min(first, _run_min(command, iterations))


def _run_min(command: list[str], iterations: int) -> float:
    run = subprocess.run(
        [*command, "--iterations", str(iterations)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    match = _MIN.search(run.stdout)
    if run.returncode != 0 or match is None:
        raise SystemExit(f"{' '.join(command)}: {run.stderr.strip() or run.stdout.strip()}")
    return float(match.group(1))


def check_same(case: Case, got: list[Any], expected: list[Any]) -> None:
    from selective_build.codegen.tolerances import mismatches, tolerance

    for a, b in zip(got, expected, strict=True):
        atol, rtol = tolerance(b.dtype.name)
        if a.shape != b.shape or mismatches(a, b, atol, rtol).any():
            raise SystemExit(f"{case.label}: optimized and portable outputs differ")


# The torch worker: reads one JSON case per line, answers the best per-call time.
WORKER = r"""
import json, sys, time
import torch
torch.set_num_threads(1)
D = DIM_D
for line in sys.stdin:
    case = json.loads(line)
    gen = torch.Generator().manual_seed(len(case["label"]))
    env = {"torch": torch, "D": D}
    for k, shape in enumerate(case["shapes"]):
        env["x" + str(k)] = torch.randn(shape, generator=gen)
    if case["int_input"] is not None:
        bound = case["int_input"]
        env["i" + str(len(case["shapes"]))] = torch.randint(0, bound, (DIM_T,), generator=gen)
    env["out"] = torch.empty(case["out_shape"])
    code = compile(case["torch"], "<case>", "eval")
    with torch.inference_mode():
        eval(code, env)
        best = float("inf")
        deadline = time.perf_counter() + case["seconds"]
        while time.perf_counter() < deadline:
            start = time.perf_counter_ns()
            eval(code, env)
            best = min(best, (time.perf_counter_ns() - start) / 1e3)
    print(json.dumps(best), flush=True)
""".replace("DIM_D", str(D)).replace("DIM_T", str(T))


# The torch worker of whole models: reads one JSON request per line (a model name and
# seconds), answers the best per-call time of the eager module's forward.
MODEL_WORKER = r"""
import json, sys, time
sys.path.insert(0, BENCHMARKS)
import torch
torch.set_num_threads(1)
import latency_models
modules = {}
for line in sys.stdin:
    request = json.loads(line)
    name = request["name"]
    if name not in modules:
        modules[name] = latency_models.eager(name)
    module, inputs = modules[name]
    with torch.inference_mode():
        module(*inputs)
        best = float("inf")
        runs = 0
        deadline = time.perf_counter() + request["seconds"]
        while runs < 3 or time.perf_counter() < deadline:
            start = time.perf_counter_ns()
            module(*inputs)
            best = min(best, (time.perf_counter_ns() - start) / 1e3)
            runs += 1
    print(json.dumps(best), flush=True)
""".replace("BENCHMARKS", repr(str(REPO / "benchmarks")))


class TorchWorker:
    def __init__(self, python: str, code: str = WORKER) -> None:
        self.process = subprocess.Popen(
            [python, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def time(self, case: Case, seconds: float) -> float:
        request = {
            "label": case.label,
            "shapes": case.shapes,
            "int_input": case.int_input,
            "out_shape": case.out_shape,
            "torch": case.torch,
            "seconds": seconds,
        }
        return self._answer(request, case.label)

    def time_model(self, name: str, seconds: float) -> float:
        """The best forward of model `name` in about `seconds` (a MODEL_WORKER)."""
        return self._answer({"name": name, "seconds": seconds}, name)

    def _answer(self, request: dict[str, Any], label: str) -> float:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{label}: the torch worker stopped")
        return float(json.loads(line))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def table(rows: list[tuple[Case, dict[str, float]]]) -> str:
    lines = [
        "| kernel | shapes | portable (µs) | optimized (µs) | optimized AVX2 (µs) | torch (µs) "
        "| portable / optimized | portable / AVX2 | AVX2 / torch |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for case, best in rows:
        shapes = " ".join("×".join(map(str, s)) or "()" for s in case.shapes)
        lines.append(
            f"| {case.label} | {shapes} | {best['portable']:.1f} | {best['optimized']:.1f} "
            f"| {best['optimized_avx2']:.1f} | {best['torch']:.1f} "
            f"| {best['portable'] / best['optimized']:.1f}× "
            f"| {best['portable'] / best['optimized_avx2']:.1f}× "
            f"| {best['optimized_avx2'] / best['torch']:.2f}× |"
        )
    return "\n".join(lines) + "\n"


def time_models(
    runners: Runners, models: Sequence[str], options: argparse.Namespace
) -> dict[str, dict[str, float]]:
    """Per model, the fastest execute() of each configuration and torch's fastest
    forward, in microseconds."""
    best: dict[str, dict[str, float]] = {}
    engines = [*MODEL_CONFIGURATIONS, *(["baseline"] if options.baseline else []), "torch"]
    worker = TorchWorker(options.et_python, MODEL_WORKER)
    try:
        for name in models:
            folder = model_folder(name)
            inputs = sorted(folder.glob("in[0-9]*.npy"), key=lambda p: int(p.stem[2:]))
            best[name] = dict.fromkeys(engines, float("inf"))
            for round_ in range(options.rounds):
                turn = round_ % len(engines)
                for engine in engines[turn:] + engines[:turn]:
                    if engine == "torch":
                        took = worker.time_model(name, options.seconds)
                    else:
                        program = folder / f"{name}.pte"
                        took = runners.time(f"{name}__{engine}", program, inputs, options.seconds)
                    best[name][engine] = min(best[name][engine], took)
            print(f"{name}: {best[name]}", file=sys.stderr, flush=True)
    finally:
        worker.close()
    return best


def model_table(best: dict[str, dict[str, float]], models: Sequence[str]) -> str:
    baseline = any("baseline" in times for times in best.values())
    lines = [
        "| model | portable (µs) | optimized + portable (µs) "
        "| optimized + portable, AVX2 (µs) | torch eager (µs) | portable / optimized "
        "| portable / AVX2 | AVX2 / torch |"
        + (" baseline, AVX2 (µs) | baseline / AVX2 | baseline / torch |" if baseline else ""),
        "|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" * 3 if baseline else ""),
    ]
    for name in models:
        port, opt, avx2, torch = (best[name][c] for c in [*MODEL_CONFIGURATIONS, "torch"])
        lines.append(
            f"| {name} | {port:.1f} | {opt:.1f} | {avx2:.1f} | {torch:.1f} "
            f"| {port / opt:.2f}× | {port / avx2:.2f}× | {avx2 / torch:.2f}× |"
        )
        if baseline:
            before = best[name]["baseline"]
            lines[-1] += f" {before:.1f} | {before / avx2:.2f}× | {before / torch:.2f}× |"
    return "\n".join(lines) + "\n\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--et-python", default="/work/et-venv/bin/python")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--models", nargs="*", default=[], help="whole models to time too")
    parser.add_argument("--no-kernels", action="store_true", help="time only the --models")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another checkout of the project (the commit before a change): its build of "
        "the --models (optimized, AVX2) is timed in the same rounds",
    )
    parser.add_argument("--cases", nargs="*", help="only the kernel cases whose label has one")
    parser.add_argument("--output", type=Path)
    options = parser.parse_args(argv)
    started = time.monotonic()
    text = ""
    with tempfile.TemporaryDirectory(prefix="kernels-elem-") as temp:
        built = build_runners(Path(temp) / "repo", options.models)
        if options.baseline is not None and options.models:
            built |= build_baseline(options.baseline, Path(temp) / "baseline", options.models)
        runners = Runners(built, Path(temp))
        if options.models:
            text += model_table(time_models(runners, options.models, options), options.models)
        worker = TorchWorker(options.et_python)
        rows: list[tuple[Case, dict[str, float]]] = []
        try:
            cases = [] if options.no_kernels else CASES
            if options.cases:
                cases = [c for c in cases if any(part in c.label for part in options.cases)]
            for case in cases:
                program, inputs = runners.program(case)
                best = dict.fromkeys(ENGINES, float("inf"))
                for round_ in range(options.rounds):
                    turn = round_ % len(ENGINES)
                    for name in ENGINES[turn:] + ENGINES[:turn]:
                        if name == "torch":
                            took = worker.time(case, options.seconds)
                        else:
                            took = runners.time(name, program, inputs, options.seconds)
                        best[name] = min(best[name], took)
                rows.append((case, best))
                print(f"{case.label}: {best}", file=sys.stderr, flush=True)
        finally:
            worker.close()
    if rows:
        text += table(rows)
    text += f"\n({options.rounds} rounds, {time.monotonic() - started:.0f} s)\n"
    print(text, end="")
    if options.output is not None:
        options.output.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
