"""Latency per model, side by side and interleaved: our runner, ExecuTorch, XNNPACK, torch.

Usage (from the repository root, with the project's Python)::

    python benchmarks/latency.py [--et-python /work/et-venv/bin/python] [--rounds 3]
        [--seconds 0.5] [--models NAME ...] [--configurations NAME ...] [--output FILE.md]
        [--without-executorch]

1. Exports the models too big to commit into the git-ignored ``benchmarks/models/``
   (``latency_models.py export``, kept when already there).
2. Builds, in a temporary copy of the repository, one include-all runner per configuration:
   ``portable`` (``libraries = ["portable", "prim", "quantized"]``, the default ``host``
   toolchain, ``-Os``, as the default manifest ships it) and, when ``kernels/optimized/``
   exists, ``optimized`` (``["optimized", "portable", "prim", "quantized"]`` on an x86-64
   AVX2 toolchain, ``-Os -mavx2 -mfma``, the optimized library's objects at its own
   ``-O2`` on top), ``optimized_v4`` (the same on ``-march=x86-64-v4``, AVX-512; built by
   default only on a processor that has it), ``optimized_2t`` and ``optimized_v4_2t``
   (``optimized`` and ``optimized_v4`` with ``threads = 2``, only when asked); records
   their bytes. ``--configurations`` picks among them; naming one whose library is missing
   fails with one line. Where the project's Python has ExecuTorch, two configurations run
   on ExecuTorch's runtime (``runtime = "executorch"``, portable, prim, quantized):
   ``executorch_runtime`` (our kernels registered with ExecuTorch) and
   ``executorch_xnnpack`` (the same target linking the XNNPACK backend, running each
   model's XNNPACK-lowered program, below).
3. Checks every model once on our runner against its reference outputs: a model the runner
   refuses, or whose outputs differ, gets "fails: <one line>" in the table; so does a model
   whose reference outputs are degenerate (all within 1e-6 of zero: a zero-initialised head
   proves nothing).
4. Times, in ``--rounds`` rounds, each model on every engine in turn (the order rotates per
   round, so slow drift in the machine's load is shared): our runner's ``--iterations N``
   (execution alone, load excluded; it prints the mean, and the minimum when it has one),
   ExecuTorch 1.5.1's ``executorch.runtime.Runtime`` on the exported program and on the same
   eager model lowered with XnnpackPartitioner (``latency_models.py xnnpack``, cached beside
   the model), and torch eager (``inference_mode``), all in one long-lived worker of
   ``--et-python`` with one thread. N per engine and model is sized to take about
   ``--seconds`` per round. CPU time is measured beside wall time: for our runner the
   child's user + system time of an N-run process less that of a 1-run one, over N - 1
   (load and the first run cancel; each run re-reads its input files, a small extra); in
   the worker, process time around the N runs.

Prints, headed by the processor's model name and instruction sets, a Markdown table of
wall time (mean and min per engine, each engine over torch), one of CPU time per run (ours
over ExecuTorch + XNNPACK and over torch), then the memory each runner prepared at load per
model: constants folded (Note [Constant folding at load], runtime/executor/fold.h) and
calls fused (Note [Fusion at load], runtime/executor/fuse.h), from the runner's lines.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from selective_build.codegen.verify import compare_output  # noqa: E402
from tests.executorch_install import executorch_installed  # noqa: E402
from tests.workspace import copy_repository, doit  # noqa: E402

EXAMPLES = REPO / "examples" / "models"
CACHE = REPO / "benchmarks" / "models"
HERE = Path(__file__).resolve().parent

# The models, in table order, and the folder each lives in: small examples, the committed
# real models, then the cached big ones (latency_models.py).
MODELS: dict[str, Path] = {
    **{name: EXAMPLES for name in ("add_mul", "mlp", "conv", "attn", "deep", "dynamic")},
    **{name: EXAMPLES for name in ("mobilenet_v2", "resnet", "llama_static", "llama_dynamic")},
    **{name: EXAMPLES for name in ("lstm", "gru_cell", "quant_conv")},
    **{name: CACHE for name in ("mlp_big", "transformer", "vit")},
    **{name: CACHE for name in ("squeezenet", "efficientnet_b0", "bert_tiny", "speech")},
    **{name: CACHE for name in ("resnet_nhwc", "mobilenet_v2_nhwc")},  # Note [Channels last]
    # Channels-last exports of conv nets (channels_last_models.py).
    **{name: CACHE for name in ("mobilenet_v2_cl", "resnet_cl", "squeezenet_cl")},
    **{name: CACHE for name in ("efficientnet_b0_cl",)},
}


@dataclass(frozen=True)
class Configuration:
    """One runner to build: kernel libraries in precedence order, and its toolchain; on
    ExecuTorch's runtime (`runtime = "executorch"`) with the backends it links, running the
    models as they are or lowered to XNNPACK (latency_models.py xnnpack)."""

    libraries: tuple[str, ...]
    toolchain: str
    threads: int = 1
    runtime: str = "ours"
    backends: tuple[str, ...] = ()
    lowered: bool = False


# Toolchains by name -> cflags. `host` is the default manifest's; `host_avx2` docs/kernels.md's
# x86-64 toolchain for AVX2 machines: the SIMD level is the toolchain's to name (the
# optimized library adds its own -O2 and Eigen's include path).
TOOLCHAINS: dict[str, list[str]] = {
    "host": ["-Os"],
    "host_avx2": ["-Os", "-mavx2", "-mfma"],
    "host_v4": ["-Os", "-march=x86-64-v4"],
}

# Runner configurations. `optimized` is built only when its library exists (issue 12).
# `quantized` serves what only it has (the PT2E programs' quantize and dequantize kernels).
CONFIGURATIONS: dict[str, Configuration] = {
    "portable": Configuration(("portable", "prim", "quantized"), "host"),
    "optimized": Configuration(("optimized", "portable", "prim", "quantized"), "host_avx2"),
    "optimized_v4": Configuration(("optimized", "portable", "prim", "quantized"), "host_v4"),
    "optimized_2t": Configuration(("optimized", "portable", "prim", "quantized"), "host_avx2", 2),
    "optimized_v4_2t": Configuration(("optimized", "portable", "prim", "quantized"), "host_v4", 2),
    # ExecuTorch's runtime with our selected kernels, and ExecuTorch + XNNPACK through an
    # executorch target: the same models lowered to XNNPACK, on a runner linking the backend
    # (issue 20). Built only where the project's Python has ExecuTorch (its targets need it).
    "executorch_runtime": Configuration(
        ("portable", "prim", "quantized"), "host", runtime="executorch"
    ),
    "executorch_xnnpack": Configuration(
        ("portable", "prim", "quantized"),
        "host",
        runtime="executorch",
        backends=("XnnpackBackend",),
        lowered=True,
    ),
}
# How the report names a configuration's column (ours: "ours, <name>").
COLUMN_NAMES = {
    "executorch_runtime": "ExecuTorch runtime, our kernels",
    "executorch_xnnpack": "ExecuTorch + XNNPACK, executorch target",
}
# Built only when asked for by --configurations.
ON_REQUEST = {"optimized_2t", "optimized_v4_2t"}
WORKER_ENGINES = ("executorch", "xnnpack", "torch")
ENGINE_TITLES = {"executorch": "ExecuTorch 1.5.1", "xnnpack": "ExecuTorch + XNNPACK"}
# Engines are keyed by name: a configuration named like a worker engine would share its cells.
assert not set(CONFIGURATIONS) & set(WORKER_ENGINES)
MAX_ITERATIONS = 1000
# At least this many runs per timed process: CPU time is a difference of two processes
# (cpu_per_run), which a single run on a loaded machine leaves at the mercy of the load's
# noise (2 runs gave MobileNetV2 2.5x its CPU time per run).
MIN_ITERATIONS = 10
# Marks a minimum that is the best round's mean (the runner printed no per-run minimum).
BEST_ROUND_MARK = "†"

_MEAN = re.compile(r"^mean time per run: ([0-9.]+) us$", re.MULTILINE)
_MIN = re.compile(r"^min(?:imum)? time per run: ([0-9.]+) us$", re.MULTILINE)
_FOLDED = re.compile(r"^constants folded at load: ([0-9]+) B$", re.MULTILINE)
_FUSED = re.compile(r"^calls fused at load: ([0-9]+), ([0-9]+) B$", re.MULTILINE)
# Reference outputs all this close to zero prove nothing about a runner.
DEGENERATE = 1e-6


@dataclass
class Timing:
    """One engine on one model: every round's mean, the per-run minima when known."""

    means_us: list[float] = field(default_factory=list)
    minima_us: list[float] = field(default_factory=list)
    cpu_us: list[float] = field(default_factory=list)  # CPU time per run, each round
    failure: str | None = None
    folded_bytes: int | None = None  # our runner's memory prepared at load
    fused: tuple[int, int] | None = None  # our runner's calls fused at load and their bytes

    def mean(self) -> float:
        return statistics.fmean(self.means_us)

    def minimum(self) -> float:
        # Without per-run minima (a runner that prints only its mean) the best round's mean.
        return min(self.minima_us or self.means_us)

    def best_round(self) -> float:
        return min(self.means_us)


@dataclass(frozen=True)
class Model:
    name: str
    pte: Path
    inputs: list[Path]
    outputs: list[Path]


def find_model(name: str) -> Model:
    folder = MODELS[name] / name
    return Model(
        name,
        folder / f"{name}.pte",
        sorted(folder.glob("in[0-9]*.npy"), key=_index),
        sorted(folder.glob("out[0-9]*.npy"), key=_index),
    )


def _index(path: Path) -> int:
    return int(re.sub(r"\D", "", path.stem))


# --------------------------------------------------------------------------- our runner


def manifest_text(configurations: dict[str, Configuration]) -> str:
    """A manifest with one include-all target per configuration (no models: the script
    checks outputs itself, so a model the runner cannot run does not stop the build). The
    libraries are the built-in ones, with their own default cflags."""
    lines = []
    for toolchain in sorted({c.toolchain for c in configurations.values()}):
        flags = ", ".join(f'"{flag}"' for flag in TOOLCHAINS[toolchain])
        lines.append(
            f'[toolchains.{toolchain}]\ncompiler = "c++"\ncflags = [{flags}]\nstrip = "strip"\n'
        )
    for name, configuration in configurations.items():
        listed = ", ".join(f'"{lib}"' for lib in configuration.libraries)
        lines.append(
            f"[targets.{name}]\nmodels = []\nlibraries = [{listed}]\n"
            f'toolchain = "{configuration.toolchain}"\ninclude_all_operators = true\n'
            f"threads = {configuration.threads}\n" + runtime_lines(configuration)
        )
    return "\n".join(lines)


def cpu_flags() -> set[str]:
    """The instruction-set flags of this machine's processor (empty where unknown)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    found = re.search(r"^flags\s*:(.*)$", text, re.MULTILINE)
    return set(found.group(1).split()) if found else set()


def processor() -> str:
    """The processor's model name and its widest x86 vector instruction sets, for the
    report's heading (every figure names what it was taken on)."""
    try:
        found = re.search(r"^model name\s*:\s*(.*)$", Path("/proc/cpuinfo").read_text(), re.M)
    except OSError:
        found = None
    name = found.group(1).strip() if found else platform.processor() or platform.machine()
    flags = cpu_flags()
    sets = [isa for isa in ("avx512f", "avx2", "fma", "neon", "asimd") if isa in flags]
    return f"{name} ({', '.join(sets) or 'no AVX2'}), {os.cpu_count()} cores"


def runtime_lines(configuration: Configuration) -> str:
    """A target's runtime and backends, when not our runtime's."""
    if configuration.runtime == "ours":
        return ""
    backends = ", ".join(f'"{backend}"' for backend in configuration.backends)
    return f'runtime = "{configuration.runtime}"\nbackends = [{backends}]\n'


def missing_library(name: str) -> str | None:
    """The first library (or ExecuTorch's install) configuration `name` needs that this
    tree (or the project's Python) lacks, or None."""
    for library in CONFIGURATIONS[name].libraries:
        if not (REPO / "kernels" / library / "functions.yaml").is_file():
            return library
    if CONFIGURATIONS[name].runtime == "executorch" and not executorch_installed():
        return "executorch"
    return None


def choose_configurations(requested: list[str] | None) -> dict[str, Configuration]:
    """The configurations to build: the requested ones, each of which must have its
    libraries (else one line naming what is missing), or by default every one that has."""
    if requested is None:
        requested = [
            name
            for name in CONFIGURATIONS
            if missing_library(name) is None
            and name not in ON_REQUEST
            and (name != "optimized_v4" or "avx512f" in cpu_flags())
        ]
    for name in requested:
        library = missing_library(name)
        if library is not None:
            needs = (
                "ExecuTorch in the project's Python (pip install torch==2.13.0, then "
                "executorch==1.5.1)"
                if library == "executorch"
                else f"kernels/{library}/functions.yaml, which this tree does not have"
            )
            raise SystemExit(f"latency: configuration {name!r} needs {needs}")
    return {name: CONFIGURATIONS[name] for name in requested}


def build_runners(
    workdir: Path, available: dict[str, Configuration]
) -> dict[str, tuple[Path, int]]:
    """Build every chosen configuration: name -> (runner, stripped bytes)."""
    copy_repository(workdir)
    (workdir / "latency.toml").write_text(manifest_text(available))
    result = doit(workdir, "-n", "2", "manifest=latency.toml", "build", timeout=3600)
    if result.returncode != 0:
        raise SystemExit(f"latency: building the runners failed:\n{result.stdout}{result.stderr}")
    runners = {}
    for name in available:
        size = json.loads((workdir / "build" / name / "size.json").read_text())
        runners[name] = (workdir / "build" / name / "runner", int(size["file"]))
    return runners


def runner_command(runner: Path, model: Model) -> list[str]:
    command = [str(runner), str(model.pte)]
    for path in model.inputs:
        command += ["--input", str(path)]
    return command


def check_on_runner(runner: Path, model: Model, scratch: Path) -> str | None:
    """None when the runner reproduces the references, else the one-line reason."""
    out = scratch / model.name
    out.mkdir(parents=True, exist_ok=True)
    run = subprocess.run(
        [*runner_command(runner, model), "--output-dir", str(out)],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if run.returncode != 0:
        return _runner_error(run, model)
    for index, expected in enumerate(model.outputs):
        problem = compare_output(expected, out / f"output{index}.npy")
        if problem is not None:
            return f"wrong output: {problem}"
    return None


@dataclass(frozen=True)
class RunnerTimes:
    """What one timed process of our runner reports."""

    mean_us: float
    min_us: float | None
    cpu_us: float  # the process's CPU time (user + system), load included
    folded: int | None  # bytes folded at load (None: a runner built without folding)
    fused: tuple[int, int] | None  # calls fused at load and their bytes


def time_on_runner(runner: Path, model: Model, iterations: int) -> RunnerTimes:
    """Runs `iterations` timed runs: the runner's mean and min of execution alone in µs,
    the process's CPU time and what it prepared at load."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        [*runner_command(runner, model), "--iterations", str(iterations)],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1e6
    mean = _MEAN.search(run.stdout)
    if run.returncode != 0 or mean is None:
        # Checked before timing, so a failure here comes from running more than once.
        raise RuntimeError(f"with --iterations: {_runner_error(run, model)}")
    minimum = _MIN.search(run.stdout)
    folded = _FOLDED.search(run.stdout)
    fused = _FUSED.search(run.stdout)
    return RunnerTimes(
        float(mean.group(1)),
        float(minimum.group(1)) if minimum else None,
        cpu,
        int(folded.group(1)) if folded else None,
        (int(fused.group(1)), int(fused.group(2))) if fused else None,
    )


def cpu_per_run(runner: Path, model: Model, iterations: int, timed: RunnerTimes) -> float:
    """CPU µs per run of `timed` (a process of `iterations` runs): less a 1-run process's,
    so loading and preparing cancel out."""
    if iterations <= 1:
        return timed.cpu_us
    single = time_on_runner(runner, model, 1)
    return max(timed.cpu_us - single.cpu_us, 0.0) / (iterations - 1)


def degenerate_outputs(model: Model) -> str | None:
    """Why the model's reference outputs prove nothing (all about zero), or None."""
    import numpy as np

    for index, path in enumerate(model.outputs):
        values = np.load(path)
        if values.size and np.issubdtype(values.dtype, np.floating):
            if float(np.abs(values).max()) <= DEGENERATE:
                return f"degenerate reference: output {index} is all within {DEGENERATE} of 0"
    return None


def _runner_error(run: subprocess.CompletedProcess[str], model: Model) -> str:
    """The runner's one-line error without its "runner: <path>: " prefix."""
    line = _one_line(run.stderr or run.stdout or f"exit code {run.returncode}, no message")
    return line.removeprefix(f"runner: {model.pte}: ")


def _one_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


# --------------------------------------------------------------------------- XNNPACK


def lower_to_xnnpack(python: str, names: list[str]) -> None:
    """The XNNPACK-lowered program of every model, cached beside it (latency_models.py):
    made before timing, so the worker only loads them. A model that does not lower gets
    "fails: ..." in its column when the worker cannot find its program."""
    for name in names:
        subprocess.run(
            [python, str(HERE / "latency_models.py"), "xnnpack", name],
            check=False,
            stdout=sys.stderr,
            stderr=subprocess.DEVNULL,
        )


# --------------------------------------------------------------------------- worker


class Worker:
    """The torch + executorch process that times ExecuTorch's runtime and torch eager."""

    def __init__(self, python: str) -> None:
        self.python = python
        self.process = self._start()

    def _start(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [self.python, str(HERE / "latency_worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def times(self, model: Model, engine: str, iterations: int) -> tuple[list[float], float]:
        """Wall µs of each run, and CPU µs per run."""
        request = {
            "model": model.name,
            "pte": str(model.pte),
            "inputs": [str(p) for p in model.inputs],
            "engine": engine,
            "iterations": iterations,
        }
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            line = stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            code = self.process.wait()
            self.process = self._start()
            raise RuntimeError(f"the worker died (exit code {code})")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise RuntimeError(str(reply["error"]))
        return [float(t) for t in reply["times_us"]], float(reply["cpu_us"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


# --------------------------------------------------------------------------- rounds


def measure(
    models: list[Model],
    runners: dict[str, Path],
    worker: Worker,
    rounds: int,
    seconds: float,
    scratch: Path,
    skipped: frozenset[str] = frozenset(),
) -> dict[str, dict[str, Timing]]:
    """model -> engine -> Timing, engines interleaved per model and round; the `skipped`
    engines are not timed (their cells read "-")."""
    engines = [*runners, *WORKER_ENGINES]
    results = {m.name: {e: Timing() for e in engines} for m in models}
    iterations: dict[tuple[str, str], int] = {}
    for model in models:
        degenerate = degenerate_outputs(model)
        for name, runner in runners.items():
            program = program_for(name, model)
            results[model.name][name].failure = (
                degenerate
                or ("not lowered to XNNPACK (no program)" if program is None else None)
                or check_on_runner(runner, program or model, scratch)
            )

    def one(model: Model, engine: str) -> None:
        timing = results[model.name][engine]
        key = (model.name, engine)
        try:
            if key not in iterations:  # a first, single run sizes N for the rounds
                iterations[key] = _iterations(_run(model, engine, 1).mean_us, seconds)
            timed = _run(model, engine, iterations[key])
        except RuntimeError as error:
            timing.failure = str(error)
            return
        timing.means_us.append(timed.mean_us)
        timing.cpu_us.append(timed.cpu_us)
        timing.folded_bytes = timed.folded
        timing.fused = timed.fused
        if timed.min_us is not None:
            timing.minima_us.append(timed.min_us)

    def _run(model: Model, engine: str, count: int) -> RunnerTimes:
        if engine in runners:
            program = program_for(engine, model) or model  # a missing one failed its check
            timed = time_on_runner(runners[engine], program, count)
            cpu = cpu_per_run(runners[engine], program, count, timed)
            return RunnerTimes(timed.mean_us, timed.min_us, cpu, timed.folded, timed.fused)
        times, cpu = worker.times(model, engine, count)
        return RunnerTimes(statistics.fmean(times), min(times), cpu, None, None)

    for round_index in range(rounds):
        order = engines[round_index % len(engines) :] + engines[: round_index % len(engines)]
        for model in models:
            for engine in order:
                if engine not in skipped and results[model.name][engine].failure is None:
                    one(model, engine)
        print(f"latency: round {round_index + 1}/{rounds} done", file=sys.stderr)
    return results


def program_for(configuration: str, model: Model) -> Model | None:
    """The model as configuration `configuration` runs it: lowered to XNNPACK (the program
    lower_to_xnnpack cached beside it; None when it did not lower) for a configuration that
    runs lowered models, else as it is. The inputs and references stay the model's."""
    if configuration not in CONFIGURATIONS or not CONFIGURATIONS[configuration].lowered:
        return model
    pte = CACHE / model.name / f"{model.name}.xnnpack.pte"  # latency_models.xnnpack_program
    return Model(model.name, pte, model.inputs, model.outputs) if pte.is_file() else None


def _iterations(single_us: float, seconds: float) -> int:
    return max(MIN_ITERATIONS, min(MAX_ITERATIONS, round(seconds * 1e6 / max(single_us, 1.0))))


# --------------------------------------------------------------------------- report


def format_us(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f} s"
    if value >= 1e3:
        return f"{value / 1e3:.2f} ms"
    return f"{value:.1f} µs" if value >= 10 else f"{value:.2f} µs"


def cell(timing: Timing) -> str:
    if timing.failure is not None:
        return f"fails: {timing.failure.replace('|', '/')}"
    if not timing.means_us:
        return "-"
    mark = "" if timing.minima_us else BEST_ROUND_MARK
    return f"{format_us(timing.mean())} ({mark}{format_us(timing.minimum())})"


def ratio(timing: Timing, torch_timing: Timing) -> str:
    """Mean over torch's mean, then (min over torch's min): on a loaded machine the minima
    are the steadier of the two."""
    if timing.failure or torch_timing.failure or not timing.means_us or not torch_timing.means_us:
        return "-"
    means = timing.mean() / torch_timing.mean()
    if timing.minima_us and torch_timing.minima_us:
        return f"{_times(means)} ({_times(timing.minimum() / torch_timing.minimum())})"
    # Compare like with like: both sides' best round when one has no per-run minimum.
    best = timing.best_round() / torch_timing.best_round()
    return f"{_times(means)} ({BEST_ROUND_MARK}{_times(best)})"


def _times(value: float) -> str:
    return f"{value:.1f}×" if value >= 0.1 else f"{value:.3f}×"


def column_name(configuration: str) -> str:
    return COLUMN_NAMES.get(configuration, f"ours, {configuration}")


def report(
    results: dict[str, dict[str, Timing]],
    sizes: dict[str, int],
    out: TextIO,
    rounds: int,
    load: tuple[float, float],
) -> None:
    configurations = list(sizes)
    headers = [column_name(c) for c in configurations]
    headers += [ENGINE_TITLES.get(e, "torch eager") for e in WORKER_ENGINES]
    ratios = [f"{column_name(c)} / torch" for c in configurations]
    ratios += [f"{ENGINE_TITLES[e]} / torch" for e in WORKER_ENGINES if e != "torch"]
    best_rounds = any(
        t.means_us and not t.minima_us for timings in results.values() for t in timings.values()
    )
    footnote = (
        f" {BEST_ROUND_MARK}: the best round's mean (our runner printed no per-run minimum); "
        "a ratio of minima marked so compares both sides' best rounds."
        if best_rounds
        else ""
    )
    print(
        f"Processor: {processor()}. Wall time: mean (min) of execution alone, {rounds} "
        f"interleaved rounds, one thread unless the configuration says otherwise; 1-minute "
        f"load average {load[0]:.1f} at the start, {load[1]:.1f} at the end.{footnote}\n",
        file=out,
    )
    print("| model | " + " | ".join(headers + ratios) + " |", file=out)
    print("|---|" + "---:|" * (len(headers) + len(ratios)), file=out)
    for model, timings in results.items():
        torch_timing = timings["torch"]
        cells = [cell(timings[e]) for e in [*configurations, *WORKER_ENGINES]]
        others = [e for e in WORKER_ENGINES if e != "torch"]
        cells += [ratio(timings[e], torch_timing) for e in [*configurations, *others]]
        print(f"| {model} | " + " | ".join(cells) + " |", file=out)
    cpu_table(results, configurations, out)
    prepared_table(results, configurations, out)
    print(
        "\n| configuration | libraries | toolchain cflags | threads | runner (stripped, "
        "include-all) |",
        file=out,
    )
    print("|---|---|---|---:|---:|", file=out)
    for name, size in sizes.items():
        configuration = CONFIGURATIONS[name]
        flags = " ".join(TOOLCHAINS[configuration.toolchain])
        libraries = ", ".join(configuration.libraries)
        print(
            f"| {name} | {libraries} | {configuration.toolchain}: `{flags}` | "
            f"{configuration.threads} | {size:,} B |",
            file=out,
        )


def cpu_table(
    results: dict[str, dict[str, Timing]], configurations: list[str], out: TextIO
) -> None:
    """CPU time per run (mean over rounds) of every engine, and ours over ExecuTorch +
    XNNPACK and over torch: the issue's goal is <= 1.0x of both."""
    engines = [*configurations, *WORKER_ENGINES]
    titles = [f"ours, {c}" for c in configurations]
    titles += [ENGINE_TITLES.get(e, "torch eager") for e in WORKER_ENGINES]
    ratios = [f"ours {c} / {versus}" for c in configurations for versus in ("XNNPACK", "torch")]
    print("\nCPU time per run (user + system, mean of the rounds):\n", file=out)
    print("| model | " + " | ".join(titles + ratios) + " |", file=out)
    print("|---|" + "---:|" * (len(titles) + len(ratios)), file=out)
    for model, timings in results.items():
        cpu = {e: _mean_cpu(timings[e]) for e in engines}
        cells = [format_us(v) if (v := cpu[e]) is not None else "-" for e in engines]
        for c in configurations:
            for versus in ("xnnpack", "torch"):
                ours, theirs = cpu[c], cpu[versus]
                cells.append("-" if ours is None or not theirs else _times(ours / theirs))
        print(f"| {model} | " + " | ".join(cells) + " |", file=out)


def _mean_cpu(timing: Timing) -> float | None:
    return None if timing.failure or not timing.cpu_us else statistics.fmean(timing.cpu_us)


def prepared_table(
    results: dict[str, dict[str, Timing]], configurations: list[str], out: TextIO
) -> None:
    """The memory each runner prepared at load per model: constants folded, calls fused."""
    titles = [f"folded at load, {c}" for c in configurations]
    titles += [f"fused at load, {c}" for c in configurations]
    print("\n| model | " + " | ".join(titles) + " |", file=out)
    print("|---|" + "---:|" * len(titles), file=out)
    for model, timings in results.items():
        folded = [timings[c].folded_bytes for c in configurations]
        cells = ["-" if b is None else f"{b:,} B" for b in folded]
        for c in configurations:
            fused = timings[c].fused
            cells.append("-" if fused is None else f"{fused[0]} calls, {fused[1]:,} B")
        print(f"| {model} | " + " | ".join(cells) + " |", file=out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--et-python", default="/work/et-venv/bin/python")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5, help="per engine, model, round")
    parser.add_argument("--models", nargs="+", choices=list(MODELS), default=list(MODELS))
    parser.add_argument(
        "--configurations",
        nargs="+",
        choices=list(CONFIGURATIONS),
        help="our runner's configurations (default: every one whose libraries exist)",
    )
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    parser.add_argument(
        "--without-executorch",
        action="store_true",
        help="leave ExecuTorch's own (portable) column untimed: seconds per conv net run",
    )
    args = parser.parse_args(argv)
    configurations = choose_configurations(args.configurations)
    if not Path(args.et_python).is_file():
        print(f"latency: {args.et_python}: no such Python (see --et-python)", file=sys.stderr)
        return 2

    cached = [name for name in args.models if MODELS[name] == CACHE]
    if cached:  # latency_models.py exports every big model when it is given none
        subprocess.run(
            [args.et_python, str(HERE / "latency_models.py"), "export", *cached],
            check=True,
            stdout=sys.stderr,
            stderr=subprocess.DEVNULL,
        )
    lower_to_xnnpack(args.et_python, args.models)
    models = [find_model(name) for name in args.models]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch:
        built = build_runners(Path(scratch) / "repo", configurations)
        worker = Worker(args.et_python)
        try:
            results = measure(
                models,
                {name: runner for name, (runner, _) in built.items()},
                worker,
                args.rounds,
                args.seconds,
                Path(scratch) / "outputs",
                frozenset({"executorch"}) if args.without_executorch else frozenset(),
            )
        finally:
            worker.close()
    sizes = {name: size for name, (_, size) in built.items()}
    load = (load_before, os.getloadavg()[0])
    report(results, sizes, sys.stdout, args.rounds, load)
    if args.output is not None:
        with args.output.open("w", encoding="utf-8") as out:
            report(results, sizes, out, args.rounds, load)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
