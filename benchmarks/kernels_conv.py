"""Convolution layers and the two conv nets: the optimized library against portable and torch.

Usage (from the repository root, with the project's Python)::

    python benchmarks/kernels_conv.py [--et-python /work/et-venv/bin/python] [--rounds 3]
        [--seconds 0.3] [--cflags "-O2 -mavx2 -mfma"] [--parts layers models]

1. Builds, in a temporary copy of the repository, two runners for the examples
   ``resnet`` and ``mobilenet_v2`` (verified by the build): ``optimized``
   (``["optimized", "portable", "prim"]``, toolchain ``--cflags``, default ``-O2 -mavx2
   -mfma``, the SIMD level of an x86-64 toolchain for this machine, plus Eigen's headers)
   and ``portable`` (``["portable", "prim"]``, the default ``-Os``).
2. Writes one single-convolution program per layer shape of the two nets (our own ``.pte``
   writer, Float NCHW, as the exporter emits them).
3. Times, in ``--rounds`` interleaved rounds, every layer and both whole models on each
   runner (``--iterations N``: execution alone) and in torch eager with one thread
   (``F.conv2d`` per layer, the eager module per model; run by ``--et-python``).
   ``--parts models`` times the whole models alone (more rounds of them for the same time
   on a loaded machine).

Prints, headed by the processor's model name and instruction sets (every figure names what
it was taken on), a Markdown table per part: the minimum per run of each engine and the
ratios optimized / torch and portable / optimized.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
import latency  # noqa: E402

from selective_build.codegen.pte.writer import IntList, Method, save_program  # noqa: E402
from tests.kernels.harness import In, KernelRunner, Out  # noqa: E402
from tests.workspace import copy_repository, doit  # noqa: E402

MODELS = ("resnet", "mobilenet_v2")


@dataclass(frozen=True)
class Layer:
    """conv2d of a 1 x cin x size x size input, square kernel, with bias (a conv before a
    batch norm has none in the models; the bias costs one pass either way)."""

    name: str
    cin: int
    cout: int
    size: int
    kernel: int
    stride: int = 1
    groups: int = 1

    @property
    def padding(self) -> int:
        return self.kernel // 2

    @property
    def out_size(self) -> int:
        return (self.size + 2 * self.padding - self.kernel) // self.stride + 1


# examples/models/resnet (ResNet-18's layout at 16..128 channels) and torchvision's
# MobileNetV2, both at 224 x 224: one row per distinct convolution shape worth timing.
LAYERS = (
    Layer("resnet stem 7x7/2", 3, 16, 224, 7, 2),
    Layer("resnet 3x3 16@56", 16, 16, 56, 3),
    Layer("resnet 3x3/2 16->32@56", 16, 32, 56, 3, 2),
    Layer("resnet 1x1/2 16->32@56", 16, 32, 56, 1, 2),
    Layer("resnet 3x3 32@28", 32, 32, 28, 3),
    Layer("resnet 3x3 64@14", 64, 64, 14, 3),
    Layer("resnet 3x3 128@7", 128, 128, 7, 3),
    Layer("mbv2 stem 3x3/2 3->32@224", 3, 32, 224, 3, 2),
    Layer("mbv2 dw 3x3 32@112", 32, 32, 112, 3, 1, 32),
    Layer("mbv2 1x1 32->16@112", 32, 16, 112, 1),
    Layer("mbv2 1x1 16->96@112", 16, 96, 112, 1),
    Layer("mbv2 dw 3x3/2 96@112", 96, 96, 112, 3, 2, 96),
    Layer("mbv2 1x1 144->24@56", 144, 24, 56, 1),
    Layer("mbv2 dw 3x3 144@56", 144, 144, 56, 3, 1, 144),
    Layer("mbv2 1x1 192->64@14", 192, 64, 14, 1),
    Layer("mbv2 dw 3x3 576@14", 576, 576, 14, 3, 1, 576),
    Layer("mbv2 1x1 960->320@7", 960, 320, 7, 1),
    Layer("mbv2 1x1 320->1280@7", 320, 1280, 7, 1),
)


def manifest_text(cflags: list[str]) -> str:
    libraries = "".join(
        f'[libraries.{lib}]\nfunctions = "kernels/{lib}/functions.yaml"\n'
        f'sources = "kernels/{lib}"\n\n'
        for lib in ("optimized", "portable", "prim")
    )
    models = "".join(
        f'[models.{m}]\npath = "examples/models/{m}/{m}.pte"\n'
        f'inputs = ["examples/models/{m}/in0.npy"]\noutputs = ["examples/models/{m}/out0.npy"]\n\n'
        for m in MODELS
    )
    listed = ", ".join(f'"{m}"' for m in MODELS)
    return (
        '[toolchains.host]\ncompiler = "c++"\ncflags = ["-Os"]\nstrip = "strip"\n\n'
        f'[toolchains.fast]\ncompiler = "c++"\ncflags = {json.dumps(cflags)}\nstrip = "strip"\n\n'
        + libraries
        + models
        + f'[targets.optimized]\nmodels = [{listed}]\ntoolchain = "fast"\n'
        'libraries = ["optimized", "portable", "prim"]\n\n'
        f'[targets.portable]\nmodels = [{listed}]\nlibraries = ["portable", "prim"]\n'
    )


def build_runners(workdir: Path, cflags: list[str]) -> dict[str, Path]:
    copy_repository(workdir)
    (workdir / "conv.toml").write_text(manifest_text([*cflags, "-I/usr/include/eigen3"]))
    result = doit(workdir, "-n", "2", "manifest=conv.toml", "build", timeout=3600)
    if result.returncode != 0:
        raise SystemExit(
            f"kernels_conv: building the runners failed:\n{result.stdout}{result.stderr}"
        )
    return {name: workdir / "build" / name / "runner" for name in ("optimized", "portable")}


class _ProgramWriter(KernelRunner):
    """The kernel tests' program builder, saving the program instead of running it."""

    def execute(self, method: Method, inputs: Any) -> list[np.ndarray]:
        save_program([method], self.scratch / "program.pte")
        for index, array in enumerate(inputs):
            np.save(self.scratch / f"in{index}.npy", np.ascontiguousarray(array))
        return []


def layer_inputs(layer: Layer, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((1, layer.cin, layer.size, layer.size)).astype(np.float32)
    w = rng.standard_normal((layer.cout, layer.cin // layer.groups, layer.kernel, layer.kernel))
    b = rng.standard_normal(layer.cout)
    return [x, w.astype(np.float32), b.astype(np.float32)]


def layer_model(layer: Layer, index: int, folder: Path) -> latency.Model:
    """A single-convolution program of `layer` and its inputs in `folder`."""
    folder.mkdir(parents=True)
    x, w, b = layer_inputs(layer, index)
    out = (1, layer.cout, layer.out_size, layer.out_size)
    s, p = (layer.stride,) * 2, (layer.padding,) * 2
    args = [In(x), In(w), In(b), IntList(s), IntList(p), IntList((1, 1)), False, IntList((0, 0))]
    _ProgramWriter(Path(), folder).run(
        "aten::convolution.out", [*args, layer.groups, Out(np.float32, out)]
    )
    return latency.Model(
        f"layer{index}", folder / "program.pte", [folder / f"in{i}.npy" for i in range(3)], []
    )


# --------------------------------------------------------------------------- torch worker


class TorchWorker:
    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen(
            [python, str(HERE / "kernels_conv_worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def times(self, request: dict[str, Any]) -> list[float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"kernels_conv: the torch worker died on {request['key']}")
        return [float(t) for t in json.loads(line)["times_us"]]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


# --------------------------------------------------------------------------- rounds


def measure(
    items: list[tuple[str, latency.Model, dict[str, Any]]],
    runners: dict[str, Path],
    worker: TorchWorker,
    rounds: int,
    seconds: float,
) -> dict[str, dict[str, float]]:
    """name -> engine -> minimum per run in µs over all rounds, engines interleaved."""
    engines = [*runners, "torch"]
    best: dict[str, dict[str, float]] = {name: {} for name, _, _ in items}
    counts: dict[tuple[str, str], int] = {}

    def run(
        name: str, model: latency.Model, request: dict[str, Any], engine: str, count: int
    ) -> float:
        if engine in runners:
            timed = latency.time_on_runner(runners[engine], model, count)
            return timed.min_us if timed.min_us is not None else timed.mean_us
        return min(worker.times({**request, "iterations": count}))

    for round_index in range(rounds):
        order = engines[round_index % len(engines) :] + engines[: round_index % len(engines)]
        for name, model, request in items:
            for engine in order:
                key = (name, engine)
                if key not in counts:
                    counts[key] = latency._iterations(run(name, model, request, engine, 1), seconds)
                value = run(name, model, request, engine, counts[key])
                best[name][engine] = min(best[name].get(engine, value), value)
        print(f"kernels_conv: round {round_index + 1}/{rounds} done", file=sys.stderr)
    return best


def table(title: str, best: dict[str, dict[str, float]]) -> str:
    lines = [
        f"| {title} | optimized | portable | torch (1 thread) | optimized / torch "
        "| portable / optimized |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, t in best.items():
        lines.append(
            f"| {name} | {latency.format_us(t['optimized'])} | "
            f"{latency.format_us(t['portable'])} | {latency.format_us(t['torch'])} | "
            f"{t['optimized'] / t['torch']:.2f}× | "
            f"{t['portable'] / t['optimized']:.0f}× |"
        )
    ratios = [t["optimized"] / t["torch"] for t in best.values()]
    lines.append(f"\nGeometric mean optimized / torch: {statistics.geometric_mean(ratios):.2f}×")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--et-python", default="/work/et-venv/bin/python")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument(
        "--cflags",
        default="-O2 -mavx2 -mfma",
        help="the optimized runner's toolchain flags (Eigen's include path is added)",
    )
    parser.add_argument(
        "--parts", nargs="+", choices=("layers", "models"), default=["layers", "models"]
    )
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kernels-conv-") as temp:
        workdir = Path(temp)
        runners = build_runners(workdir / "repo", options.cflags.split())
        layer_items = []
        for index, layer in enumerate(LAYERS):
            model = layer_model(layer, index, workdir / "layers" / str(index))
            request = {
                "key": layer.name,
                "inputs": [str(p) for p in model.inputs],
                "layer": [layer.stride, layer.padding, layer.groups],
            }
            layer_items.append((layer.name, model, request))
        model_items = [
            (name, latency.find_model(name), {"key": name, "model": name}) for name in MODELS
        ]
        parts = {"layers": layer_items, "models": model_items}
        worker = TorchWorker(options.et_python)
        try:
            results = {
                part: measure(parts[part], runners, worker, options.rounds, options.seconds)
                for part in ("layers", "models")
                if part in options.parts
            }
        finally:
            worker.close()
    titles = {"layers": "layer (min per run)", "models": "model (min per run)"}
    print(f"Processor: {latency.processor()}; optimized toolchain `{options.cflags}`.\n")
    print("\n\n".join(table(titles[part], best) for part, best in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
