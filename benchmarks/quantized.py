"""PT2E-quantized models on our runner against ExecuTorch + XNNPACK, CPU time per
inference, one thread, side by side in one run.

Usage (from the repository root, with a Python that has torch 2.13 and executorch 1.5.1, e.g.
the project's virtualenv after `pip install torch==2.13.0 executorch==1.5.1`)::

    python benchmarks/quantized.py [--rounds 5] [--iterations 20] [--models NAME ...]

The models are the committed PT2E programs of examples/ (examples/export_real_models.py:
XNNPACKQuantizer's symmetric int8 config, not delegated, so our runner runs their
quantize/dequantize kernels and float operators), and torchvision's MobileNetV2 quantized
the same way (per-channel weights), exported into the cache on first use. For ExecuTorch +
XNNPACK the same eager module (same seeds, same calibration) is quantized the same way and
lowered with XnnpackPartitioner into the git-ignored benchmarks/models/<name>_xnnpack.pte,
then run by ExecuTorch's Python runtime with its thread pool set to one thread. Our runner:
one dtype-selective target of the models with `["optimized", "quantized", "portable"]` on
the host toolchain (its instruction set the build machine's best, Note [Instruction
sets]), built in a temporary copy of the repository.

CPU time: ours is the runner process's user + system time of `--iterations N+1` minus that
of `--iterations 1`, over N (load excluded, the per-run input copy included; N at least
`--iterations`, more for a small model, so that the runs take 0.3 s); ExecuTorch's
the thread's CPU time (time.thread_time) around N calls of `execute`, over N. The figure
per engine is the minimum over the interleaved rounds. Every engine's outputs are compared
with the committed references (ExecuTorch's portable runtime on the undelegated program):
XNNPACK computes in integers and rounds its own way, so its difference is printed, not
judged.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "examples"))
from tests.workspace import copy_repository, doit  # noqa: E402

MODELS = ("quant_conv", "quant_linear", "quant_convs", "quant_mobilenet_v2")
# Too big to commit: exported on first use into the cache, with its inputs and references
# (ExecuTorch's runtime on the undelegated program), by examples/export_real_models.py's
# code: torchvision's MobileNetV2, random weights, quantized like the examples.
EXPORTED = ("quant_mobilenet_v2",)
CACHE = REPO / "benchmarks" / "models"
TARGET = "quantized_bench"


def processor() -> str:
    text = Path("/proc/cpuinfo").read_text()
    model = re.search(r"^model name\s*:\s*(.*)$", text, re.MULTILINE)
    flags = re.search(r"^flags\s*:\s*(.*)$", text, re.MULTILINE)
    vector = [f for f in (flags.group(1).split() if flags else []) if "vnni" in f or f == "avx2"]
    return f"{model.group(1) if model else 'unknown'} ({', '.join(vector) or 'no AVX2'})"


def real_model(name: str) -> object:
    import export_real_models as real

    if name == "quant_mobilenet_v2":
        return real.RealModel(
            real.mobilenet_v2,
            lambda: (real._randn(1, 3, 224, 224),),
            atol=1e-3,
            quantize=True,
            per_channel=True,
        )
    return real.REAL_MODELS[name]


def example(name: str) -> Path:
    """The folder of the model's program, inputs and references."""
    if name not in EXPORTED:
        return REPO / "examples" / "models" / name
    folder = CACHE / name
    if not (folder / f"{name}.pte").is_file():
        import export_real_models as real

        real.export_one(name, real_model(name), CACHE)  # type: ignore[arg-type]
    return folder


def inputs_of(name: str) -> list[Path]:
    return sorted(example(name).glob("in[0-9]*.npy"))


def xnnpack_program(name: str) -> Path:
    """The model quantized as examples/ does it and lowered to XNNPACK (cached)."""
    path = CACHE / f"{name}_xnnpack.pte"
    if path.is_file():
        return path
    import export_real_models as real
    import torch
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    module, inputs = real.prepare(real_model(name))  # type: ignore[arg-type]
    exported = torch.export.export(module, inputs)
    program = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(program.to_executorch().buffer)
    return path


def manifest(models: list[str], toolchain: str) -> str:
    lines = []
    for name in models:
        folder = str(example(name))
        ins = ", ".join(f'"{folder}/{p.name}"' for p in inputs_of(name))
        # A deep quantized net's outputs move by a quantization step when a sum rounds the
        # other way (ExecuTorch's own runtime is that far from PyTorch's reference): beyond
        # the build's tolerance, so the table reports its difference instead.
        outputs = "" if name in EXPORTED else f'outputs = ["{folder}/out0.npy"]\n'
        lines.append(f'[models.{name}]\npath = "{folder}/{name}.pte"\ninputs = [{ins}]\n{outputs}')
    quoted = ", ".join(f'"{name}"' for name in models)
    lines.append(
        f"[targets.{TARGET}]\nmodels = [{quoted}]\n"
        'libraries = ["optimized", "quantized", "portable"]\ndtype_selective = true\n'
        f'toolchain = "{toolchain}"\n'
    )
    return "\n".join(lines)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ours(runner: Path, name: str, iterations: int, output: Path) -> float:
    """CPU seconds per inference of our runner (load excluded): a process's CPU time is
    known to a few hundred microseconds, so small models run enough times to take 0.3 s."""
    command = [str(runner), str(example(name) / f"{name}.pte")]
    for path in inputs_of(name):
        command += ["--input", str(path)]
    first = subprocess.run(
        [*command, "--iterations", "3", "--output-dir", str(output)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = re.search(r"^min time per run: ([0-9.]+) us$", first, re.MULTILINE)
    estimate = float(found.group(1)) * 1e-6 if found else 1e-3
    iterations = max(iterations, min(100000, int(0.3 / max(estimate, 1e-7))))
    spent = []
    for count in (1, iterations + 1):
        before = children_cpu()
        subprocess.run(
            [*command, "--iterations", str(count), "--output-dir", str(output)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        spent.append(children_cpu() - before)
    return (spent[1] - spent[0]) / iterations


class Xnnpack:
    """One loaded XNNPACK-lowered program in ExecuTorch's Python runtime."""

    def __init__(self, name: str) -> None:
        import torch
        from executorch.extension.pybindings import portable_lib
        from executorch.runtime import Runtime

        portable_lib._unsafe_reset_threadpool(1)  # one thread, as our runner
        import executorch.kernels.quantized  # noqa: F401  (kernels outside the delegate)

        self.method = Runtime.get().load_program(xnnpack_program(name)).load_method("forward")
        self.inputs = [torch.from_numpy(np.load(path)) for path in inputs_of(name)]
        self.outputs = self.method.execute(self.inputs)  # warm-up

    def cpu(self, iterations: int) -> float:
        """CPU seconds per call, over at least 0.1 s of calls."""
        start, count = time.thread_time(), 0
        while count < iterations or time.thread_time() - start < 0.1:
            self.method.execute(self.inputs)
            count += 1
        return (time.thread_time() - start) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    # The host toolchain's `best` takes VNNI where the machine has it (Note [Instruction
    # sets]); "x86-64-v4" pins AVX-512 without it, "native" everything the machine has.
    parser.add_argument("--toolchain", default="host", help="our runner's toolchain")
    options = parser.parse_args()
    for name in options.models:
        example(name)  # exported now, outside the timed rounds
    xnnpack = {name: Xnnpack(name) for name in options.models}
    with tempfile.TemporaryDirectory() as scratch:
        workdir = copy_repository(Path(scratch))
        (workdir / "bench.toml").write_text(manifest(options.models, options.toolchain))
        build = doit(workdir, "-n", "2", "manifest=bench.toml", "build", timeout=3600)
        if build.returncode != 0:
            print(f"quantized: the build failed:\n{build.stdout}{build.stderr}", file=sys.stderr)
            return 1
        summary = [line for line in build.stdout.splitlines() if line.startswith(f"{TARGET}:")]
        runner = workdir / "build" / TARGET / "runner"
        best: dict[tuple[str, str], float] = {}
        output = Path(scratch) / "out"
        output.mkdir()
        for _ in range(options.rounds):
            for name in options.models:
                for engine in ("ours", "xnnpack"):
                    spent = (
                        ours(runner, name, options.iterations, output)
                        if engine == "ours"
                        else xnnpack[name].cpu(options.iterations)
                    )
                    best[(name, engine)] = min(best.get((name, engine), spent), spent)
                reference = np.load(example(name) / "out0.npy")
                got = np.load(output / "output0.npy")
                xnn = np.asarray(xnnpack[name].outputs[0])
                best[(name, "ours_diff")] = float(np.abs(got - reference).max())
                best[(name, "xnnpack_diff")] = float(np.abs(xnn - reference).max())
    print(f"CPU: {processor()}. {summary[0] if summary else ''}\n")
    print(
        "| model | ours, CPU per inference | ExecuTorch + XNNPACK | ours / XNNPACK | "
        "max abs. diff. to reference: ours | XNNPACK |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in options.models:
        mine, theirs = best[(name, "ours")], best[(name, "xnnpack")]
        print(
            f"| {name} | {mine * 1e6:.1f} µs | {theirs * 1e6:.1f} µs | {mine / theirs:.2f}× | "
            f"{best[(name, 'ours_diff')]:.2g} | {best[(name, 'xnnpack_diff')]:.2g} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
