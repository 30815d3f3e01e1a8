"""Export small programs lowered to ExecuTorch's XNNPACK delegate, with the real exporter.

For every model this writes, under ``examples/models/<name>/``, the same files as
``export_models.py`` (``<name>.pte``, ``in*.npy``, ``out*.npy``, ``selected_operators.yaml``):

* ``xnn_conv``            an fp32 conv net, every operator in one XNNPACK delegate;
* ``xnn_quant_conv``      the same kind of net quantized with PT2E (XNNPACKQuantizer, int8,
                          per-channel weights, static activations), then lowered;
* ``xnn_dynamic_linear``  two Linear layers quantized dynamically (int8 per-channel weights,
                          activations quantized at run time), then lowered;
* ``xnn_partial``         non-delegated kernel calls around a delegate: cumsum (which XNNPACK
                          does not take) before, Linear + ReLU delegated, flip and topk after.

The references are ExecuTorch's own runtime outputs with its XNNPACK backend (the backend's
arithmetic, not PyTorch eager's, is what a runtime linking it reproduces); the script prints
how far PyTorch eager is from them and refuses a reference that is all zeros.

Re-running gives byte-identical files (fixed seeds, one thread); it prints per model
``unchanged`` or the files that changed (``--check`` compares only, writing nothing).

Usage (the dev-only torch + executorch environment, ``/work/shared/notes/exporting.md``)::

    .venv/bin/python examples/export_xnnpack_models.py [--only NAME ...] [--check]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

# The helpers of the other export scripts: same file layout, same checks.
from export_models import (
    FORWARD,
    PTE_IDENTIFIER,
    XNNPACK_BACKEND,
    check_with_runtime,
    flatten_outputs,
    run_eager,
    save_arrays,
    write_selected_operators,
)
from export_real_models import changed_files, quantize_pt2e
from torch import nn

MODELS_DIR = Path(__file__).resolve().parent / "models"
WEIGHT_SEED = 0
INPUT_SEED = 1

Inputs = tuple[torch.Tensor, ...]
Quantization = str  # "none", "static" or "dynamic"


class ConvNet(nn.Module):
    """Two 3x3 convolutions with ReLU, a max pool and a linear head: 3x16x16 -> 10."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.head = nn.Linear(8 * 8 * 8, 10)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        hidden = torch.relu(self.conv2(torch.relu(self.conv1(image))))
        return self.head(torch.flatten(self.pool(hidden), 1))


class TwoLinear(nn.Module):
    """Linear(16, 32) -> ReLU -> Linear(32, 8)."""

    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(16, 32)
        self.second = nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(torch.relu(self.first(x)))


class AroundDelegate(nn.Module):
    """cumsum -> Linear + ReLU -> flip, and the two largest of each row: XNNPACK takes the
    Linear and the ReLU only, so kernel calls run before and after the delegate."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = torch.relu(self.linear(torch.cumsum(x, dim=1)))
        return torch.flip(hidden, [1]), torch.topk(hidden, 2, dim=1).values


@dataclass(frozen=True)
class XnnpackModel:
    make_module: Callable[[], nn.Module]
    make_inputs: Callable[[], Inputs]
    # The operators left outside the delegate (gen_oplist's list).
    expected_ops: frozenset[str]
    quantization: Quantization = "none"
    # Largest |eager - ExecuTorch| this model's arithmetic explains (quantized: a step or so).
    eager_atol: float = 1e-4


def _randn(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, dtype=torch.float32)


MODELS: dict[str, XnnpackModel] = {
    "xnn_conv": XnnpackModel(ConvNet, lambda: (_randn(1, 3, 16, 16),), frozenset()),
    "xnn_quant_conv": XnnpackModel(
        ConvNet, lambda: (_randn(1, 3, 16, 16),), frozenset(), "static", eager_atol=0.1
    ),
    "xnn_dynamic_linear": XnnpackModel(
        TwoLinear, lambda: (_randn(4, 16),), frozenset(), "dynamic", eager_atol=0.1
    ),
    "xnn_partial": XnnpackModel(
        AroundDelegate,
        lambda: (_randn(3, 8),),
        frozenset({"aten::cumsum.out", "aten::flip.out", "aten::topk.values"}),
    ),
}


def lower(name: str, module: nn.Module, inputs: Inputs) -> tuple[bytes, list[str]]:
    """torch.export -> XNNPACK partitioner -> to_executorch: the bytes and delegate ids."""
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    exported = torch.export.export(module, inputs)
    program = to_edge_transform_and_lower(
        exported, partitioner=[XnnpackPartitioner()]
    ).to_executorch()
    plans = program.executorch_program.execution_plan
    if [plan.name for plan in plans] != [FORWARD]:
        raise RuntimeError(f"{name}: expected one forward method")
    pte = bytes(program.buffer)
    if pte[4:8] != PTE_IDENTIFIER:
        raise RuntimeError(f"{name}: program identifier is {pte[4:8]!r}")
    return pte, [delegate.id for plan in plans for delegate in plan.delegates]


def runtime_outputs(pte_path: Path, inputs: Inputs) -> list[torch.Tensor]:
    """What ExecuTorch's own runtime (its wheel registers XNNPACK) returns for forward."""
    from executorch.runtime import Runtime

    method = Runtime.get().load_program(pte_path).load_method(FORWARD)
    if method is None:
        raise RuntimeError(f"{pte_path}: no forward method")
    return [torch.as_tensor(np.asarray(t)).clone() for t in method.execute(list(inputs))]


def export_one(name: str, model: XnnpackModel, destination: Path) -> None:
    """Write one model's folder under `destination` and check it."""
    import yaml

    torch.manual_seed(WEIGHT_SEED)
    module = model.make_module().eval()
    torch.manual_seed(INPUT_SEED)
    inputs = model.make_inputs()
    if model.quantization != "none":
        dynamic = model.quantization == "dynamic"
        module = quantize_pt2e(module, inputs, per_channel=True, dynamic=dynamic)
    eager = run_eager(module, FORWARD, inputs)
    pte, delegates = lower(name, module, inputs)
    if not delegates or set(delegates) != {XNNPACK_BACKEND}:
        raise RuntimeError(f"{name}: expected XNNPACK delegates, got {delegates}")

    folder = destination / name
    folder.mkdir(parents=True, exist_ok=True)
    pte_path = folder / f"{name}.pte"
    pte_path.write_bytes(pte)
    write_selected_operators(pte_path, folder / "selected_operators.yaml")
    ops = yaml.safe_load((folder / "selected_operators.yaml").read_text(encoding="utf-8"))
    if frozenset(ops["operators"]) != model.expected_ops:
        raise RuntimeError(f"{name}: operators outside the delegate are {sorted(ops['operators'])}")

    reference = runtime_outputs(pte_path, inputs)
    for index, tensor in enumerate(reference):
        if not bool(tensor.ne(0).any()):
            raise RuntimeError(f"{name}: output {index} is all zeros, a useless reference")
    worst = max(float((a - b).abs().max()) for a, b in zip(reference, eager, strict=True))
    if worst > model.eager_atol:
        raise RuntimeError(f"{name}: ExecuTorch differs from eager by {worst}")
    save_arrays(folder, inputs, reference)
    check_with_runtime(name, pte_path, FORWARD, inputs, reference, 0.0)
    shapes = ", ".join(str(tuple(t.shape)) for t in flatten_outputs(reference))
    print(
        f"{name}: {len(pte):,} bytes, {len(delegates)} delegate call(s); outputs {shapes};"
        f" max |ExecuTorch - eager| {worst:.3g}"
    )


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", nargs="+", choices=sorted(MODELS), metavar="NAME")
    parser.add_argument(
        "--check", action="store_true", help="export into a scratch folder and compare only"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # one thread: reductions split by core count change low bits
    from executorch.extension.pybindings import portable_lib

    portable_lib._unsafe_reset_threadpool(1)  # XNNPACK too: the references on one thread
    selected = [name for name in MODELS if not args.only or name in args.only]
    with tempfile.TemporaryDirectory() as scratch:
        for name in selected:
            export_one(name, MODELS[name], Path(scratch))
            changed = changed_files(Path(scratch) / name, MODELS_DIR / name)
            print(f"{name}: {'changed: ' + ', '.join(changed) if changed else 'unchanged'}")
            if not args.check:
                shutil.rmtree(MODELS_DIR / name, ignore_errors=True)
                shutil.copytree(Path(scratch) / name, MODELS_DIR / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
