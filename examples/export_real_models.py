"""Export real-sized models with ExecuTorch's own exporter, random weights, fixed seeds.

For every model this writes, under ``examples/models/<name>/``, the same files as
``export_models.py`` (``<name>.pte``, ``in*.npy``, ``out*.npy``, ``selected_operators.yaml``):

* ``mobilenet_v2``   torchvision's MobileNetV2, image 1x3x224x224;
* ``resnet``         a narrow ResNet-18-shaped net (torchvision's BasicBlock), 1x3x224x224;
* ``llama_static``   a Llama-style decoder (RMSNorm, rotary embeddings, SiLU-gated MLP,
                     causal attention), 8 tokens;
* ``llama_dynamic``  the same decoder with a symbolic sequence length (2..31), saved at 8;
* ``lstm``           a two-layer LSTM over 5 steps, returning the sequence and both states;
* ``gru_cell``       one GRU cell step;
* ``quant_conv``     a conv net quantized with PT2E (XNNPACKQuantizer, not delegated): the
                     program calls quantized_decomposed quantize/dequantize kernels;
* ``quant_linear``   three Linear layers quantized the same way, weights per channel;
* ``quant_convs``    strided, 1x1 and grouped convolutions and a Linear head, likewise.
* ``quant_residual`` two residual blocks (1x1, ReLU6, depthwise 3x3, added to the block's
  input: PT2E's dequantize, float add, quantize) and a Linear head, likewise.

The outputs are PyTorch eager's, checked against ExecuTorch's Python runtime; for
the quantized models the references are ExecuTorch's runtime outputs (its quantize kernels may
round differently from PyTorch's reference implementation; the script prints by how much).

Re-running gives byte-identical files: seeds are fixed per model, eager runs on one thread,
and the exporter is deterministic for these models. The script says which files changed
(``--check`` exports into a scratch folder and only compares, writing nothing).

Usage (needs the dev-only torch + executorch + torchvision environment, see
``/work/shared/notes/exporting.md`` and ``examples/README.md``)::

    /work/et-venv/bin/python examples/export_real_models.py [--only NAME ...] [--check]
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

# The helpers of the small examples' script: same file layout, same checks.
from export_models import (
    FORWARD,
    PTE_IDENTIFIER,
    check_with_runtime,
    flatten_outputs,
    run_eager,
    save_arrays,
    write_selected_operators,
)
from torch import nn
from torch.nn import functional

MODELS_DIR = Path(__file__).resolve().parent / "models"
WEIGHT_SEED = 0
INPUT_SEED = 1
CALIBRATION_SEED = 2

Inputs = tuple[torch.Tensor, ...]


def _import_torchvision() -> types.ModuleType:
    """torchvision's model definitions without its compiled ops.

    The registry's torchvision 0.28 wheel is a CUDA build whose `_C` cannot load next to a
    CPU-only torch; its meta registrations then fail at import. The model definitions need
    neither, so an empty module stands in for them (exporting.md).
    """
    sys.modules.setdefault(
        "torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations")
    )
    import torchvision

    return torchvision


# --------------------------------------------------------------------------- models


def mobilenet_v2() -> nn.Module:
    """torchvision's MobileNetV2 (1000 classes), random weights from its own initialiser."""
    model: nn.Module = _import_torchvision().models.mobilenet_v2()
    return _randomise_batch_norm(model)


class NarrowResNet(nn.Module):
    """ResNet-18's layout (stem, 4 stages of 2 BasicBlocks, pooling, linear head) at a
    quarter of its width (16..128 channels): the same operators, 0.83 M parameters
    (3.3 MB of weights instead of 47 MB)."""

    def __init__(self, widths: Sequence[int] = (16, 32, 64, 128), classes: int = 1000) -> None:
        super().__init__()
        block = _import_torchvision().models.resnet.BasicBlock
        self.stem = nn.Sequential(
            nn.Conv2d(3, widths[0], kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(widths[0]),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        stages: list[nn.Module] = []
        channels = widths[0]
        for index, width in enumerate(widths):
            stride = 1 if index == 0 else 2
            downsample = None
            if stride != 1 or channels != width:
                downsample = nn.Sequential(
                    nn.Conv2d(channels, width, kernel_size=1, stride=stride, bias=False),
                    nn.BatchNorm2d(width),
                )
            stages += [block(channels, width, stride, downsample), block(width, width)]
            channels = width
        self.stages = nn.Sequential(*stages)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(channels, classes)
        for module in self.modules():
            if isinstance(module, nn.Conv2d):
                nn.init.kaiming_normal_(module.weight, mode="fan_out", nonlinearity="relu")
        _randomise_batch_norm(self)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        features = self.pool(self.stages(self.stem(image)))
        return self.head(torch.flatten(features, 1))


def _randomise_batch_norm(model: nn.Module) -> nn.Module:
    """Running statistics and affine parameters away from their identity defaults, so the
    folded-or-not batch norm arithmetic is exercised."""
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                count = module.num_features
                module.running_mean.copy_(0.1 * torch.randn(count))
                module.running_var.copy_(0.5 + torch.rand(count))
                module.weight.copy_(1.0 + 0.1 * torch.randn(count))
                module.bias.copy_(0.1 * torch.randn(count))
    return model


@dataclass(frozen=True)
class LlamaShape:
    """A deliberately tiny configuration: the operators of a Llama decoder, not its cost."""

    vocabulary: int = 64
    width: int = 32
    heads: int = 4
    layers: int = 2
    hidden: int = 64
    # Rotary tables and the causal mask are precomputed for this many positions.
    max_positions: int = 32
    eps: float = 1e-5


class RmsNorm(nn.Module):
    """x / sqrt(mean(x^2) + eps) * weight, in the input's dtype."""

    def __init__(self, width: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    """(x1, x2) -> (-x2, x1) over the last dimension's two halves (sliced, as Hugging
    Face's Llama does; `chunk` would export as split_with_sizes_copy)."""
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class DecoderLayer(nn.Module):
    """Pre-norm causal self-attention with rotary positions, then a SiLU-gated MLP."""

    def __init__(self, shape: LlamaShape) -> None:
        super().__init__()
        self.heads = shape.heads
        self.head_width = shape.width // shape.heads
        self.attention_norm = RmsNorm(shape.width, shape.eps)
        self.query = nn.Linear(shape.width, shape.width, bias=False)
        self.key = nn.Linear(shape.width, shape.width, bias=False)
        self.value = nn.Linear(shape.width, shape.width, bias=False)
        self.output = nn.Linear(shape.width, shape.width, bias=False)
        self.mlp_norm = RmsNorm(shape.width, shape.eps)
        self.gate = nn.Linear(shape.width, shape.hidden, bias=False)
        self.up = nn.Linear(shape.width, shape.hidden, bias=False)
        self.down = nn.Linear(shape.hidden, shape.width, bias=False)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.heads, self.head_width).transpose(1, 2)

    def forward(
        self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        batch, tokens, width = x.shape
        normed = self.attention_norm(x)
        query, key = self._split(self.query(normed)), self._split(self.key(normed))
        value = self._split(self.value(normed))
        query = query * cos + _rotate_half(query) * sin
        key = key * cos + _rotate_half(key) * sin
        scores = query @ key.transpose(-2, -1) / (self.head_width**0.5) + mask
        mixed = torch.softmax(scores, dim=-1) @ value
        x = x + self.output(mixed.transpose(1, 2).reshape(batch, tokens, width))
        normed = self.mlp_norm(x)
        return x + self.down(functional.silu(self.gate(normed)) * self.up(normed))


class LlamaDecoder(nn.Module):
    """Token ids (1, T) -> logits (1, T, vocabulary); T from 1 to max_positions - 1."""

    def __init__(self, shape: LlamaShape = LlamaShape()) -> None:
        super().__init__()
        self.embed = nn.Embedding(shape.vocabulary, shape.width)
        self.layers = nn.ModuleList(DecoderLayer(shape) for _ in range(shape.layers))
        self.norm = RmsNorm(shape.width, shape.eps)
        self.head = nn.Linear(shape.width, shape.vocabulary, bias=False)
        head_width = shape.width // shape.heads
        frequencies = 1.0 / (10000.0 ** (torch.arange(0, head_width, 2).float() / head_width))
        angles = torch.outer(torch.arange(shape.max_positions).float(), frequencies)
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)
        causal = torch.full((shape.max_positions, shape.max_positions), float("-inf")).triu(1)
        self.register_buffer("mask", causal, persistent=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        count = tokens.shape[1]
        cos, sin = self.cos[:count], self.sin[:count]
        mask = self.mask[:count, :count]
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.head(self.norm(x))


class TwoLayerLstm(nn.Module):
    """nn.LSTM(8 -> 16, two layers, batch first): the sequence and the final h and c."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        sequence, (hidden, cell) = self.lstm(x)
        return sequence, hidden, cell


class QuantConvNet(nn.Module):
    """Two convolutions and a linear head: what PT2E quantizes into int8 patterns."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, kernel_size=3, padding=1)
        self.head = nn.Linear(8 * 4 * 4, 10)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv1(image))
        x = functional.max_pool2d(torch.relu(self.conv2(x)), 2)
        return self.head(torch.flatten(x, 1))


class QuantMlp(nn.Module):
    """Three Linear layers with ReLUs, a batch of 4: PT2E's int8 linear pattern."""

    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, 10)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


class QuantConvStack(nn.Module):
    """Strided 3x3, 3x3, 1x1 and grouped 3x3 convolutions with ReLUs, then a Linear head:
    PT2E's int8 convolution patterns at a few shapes."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(32, 48, 1),
            nn.ReLU(),
            nn.Conv2d(48, 48, 3, stride=2, padding=1, groups=2),
            nn.ReLU(),
        )
        self.head = nn.Linear(48 * 8 * 8, 10)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.head(torch.flatten(self.features(image), 1))


class QuantResidualNet(nn.Module):
    """A stem, two MobileNetV2-style residual blocks (1x1, ReLU6, depthwise 3x3, the out added
    to the block's input) and a Linear head: PT2E's int8 residual add. 10 channels of 7x7,
    so the add's 490 values end in a part vector."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 10, 3, padding=1), nn.ReLU())
        self.blocks = nn.ModuleList(
            nn.Sequential(
                nn.Conv2d(10, 10, 1), nn.ReLU6(), nn.Conv2d(10, 10, 3, padding=1, groups=10)
            )
            for _ in range(2)
        )
        self.head = nn.Linear(10 * 7 * 7, 10)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = self.stem(image)
        for block in self.blocks:
            x = x + block(x)
        return self.head(torch.flatten(x, 1))


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class RealModel:
    """One model: how to build it, its inputs, and how it is exported and checked."""

    make_module: Callable[[], nn.Module]
    make_inputs: Callable[[], Inputs]
    # |ExecuTorch runtime - eager| allowed when checking the export: deeper nets accumulate
    # more float rounding differences than the small examples' 1e-5.
    atol: float = 1e-5
    # When set: dimension 1 of the first input is symbolic in [2, this]; the runtime is also
    # checked at both ends of that range.
    dynamic_tokens: int | None = None
    # PT2E quantization (XNNPACKQuantizer, symmetric, not delegated) before lowering, with
    # a scale per weight tensor or per output channel.
    quantize: bool = False
    per_channel: bool = False


def _randn(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, dtype=torch.float32)


def _tokens(count: int) -> Inputs:
    return (torch.randint(0, LlamaShape().vocabulary, (1, count), dtype=torch.int64),)


REAL_MODELS: dict[str, RealModel] = {
    "mobilenet_v2": RealModel(mobilenet_v2, lambda: (_randn(1, 3, 224, 224),), atol=1e-4),
    "resnet": RealModel(NarrowResNet, lambda: (_randn(1, 3, 224, 224),), atol=1e-4),
    "llama_static": RealModel(LlamaDecoder, lambda: _tokens(8), atol=1e-5),
    "llama_dynamic": RealModel(LlamaDecoder, lambda: _tokens(8), atol=1e-5, dynamic_tokens=31),
    "lstm": RealModel(TwoLayerLstm, lambda: (_randn(1, 5, 8),)),
    "gru_cell": RealModel(lambda: nn.GRUCell(8, 16), lambda: (_randn(3, 8), _randn(3, 16))),
    "quant_conv": RealModel(QuantConvNet, lambda: (_randn(1, 3, 8, 8),), quantize=True),
    "quant_linear": RealModel(QuantMlp, lambda: (_randn(4, 64),), quantize=True, per_channel=True),
    "quant_convs": RealModel(
        QuantConvStack, lambda: (_randn(1, 3, 32, 32),), quantize=True, per_channel=True
    ),
    "quant_residual": RealModel(
        QuantResidualNet, lambda: (_randn(1, 3, 7, 7),), quantize=True, per_channel=True
    ),
}


# --------------------------------------------------------------------------- export


def quantize_pt2e(
    module: nn.Module, inputs: Inputs, per_channel: bool = False, dynamic: bool = False
) -> nn.Module:
    """PT2E: annotate with XNNPACK's symmetric int8 config (per-tensor weights unless
    `per_channel`; activations calibrated on seeded inputs, or quantized by the program at
    run time when `dynamic`), calibrate, convert. The result holds quantize/dequantize pairs
    around float ops."""
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    config = get_symmetric_quantization_config(is_per_channel=per_channel, is_dynamic=dynamic)
    quantizer = XNNPACKQuantizer().set_global(config)
    captured = torch.export.export(module, inputs).module()
    prepared = prepare_pt2e(captured, quantizer)  # type: ignore[arg-type]
    generator = torch.Generator().manual_seed(CALIBRATION_SEED)
    for _ in range(8):
        prepared(*(torch.randn(t.shape, generator=generator) for t in inputs))
    prepared(*inputs)
    # The converted GraphModule refuses .eval() (exporting.md): it is exported as it is.
    converted: nn.Module = convert_pt2e(prepared)
    return converted


def lower(name: str, model: RealModel, module: nn.Module, inputs: Inputs) -> bytes:
    """torch.export -> to_edge (no delegate) -> to_executorch: the program's bytes."""
    from executorch.exir import to_edge

    if model.quantize:
        # Registers the out variants of quantized_decomposed ops; without it to_executorch
        # fails with "Missing out variants" (exporting.md).
        import executorch.kernels.quantized  # noqa: F401
    dynamic_shapes: Any = None
    if model.dynamic_tokens is not None:
        tokens = torch.export.Dim("tokens", min=2, max=model.dynamic_tokens)
        dynamic_shapes = ({1: tokens},)
    exported = torch.export.export(module, inputs, dynamic_shapes=dynamic_shapes)
    program = to_edge(exported).to_executorch()
    plans = program.executorch_program.execution_plan
    if [plan.name for plan in plans] != [FORWARD] or any(plan.delegates for plan in plans):
        raise RuntimeError(f"{name}: expected one undelegated forward method")
    pte = bytes(program.buffer)
    if pte[4:8] != PTE_IDENTIFIER:
        raise RuntimeError(f"{name}: program identifier is {pte[4:8]!r}")
    return pte


def runtime_outputs(pte_path: Path, inputs: Inputs) -> list[torch.Tensor]:
    """What ExecuTorch's own runtime returns for forward."""
    from executorch.runtime import Runtime

    method = Runtime.get().load_program(pte_path).load_method(FORWARD)
    if method is None:
        raise RuntimeError(f"{pte_path}: no forward method")
    return [torch.as_tensor(np.asarray(t)) for t in method.execute(list(inputs))]


def prepare(model: RealModel) -> tuple[nn.Module, Inputs]:
    """The module (quantized when asked) and its inputs, from the fixed seeds: the same
    weights every time, so the latency benchmark's torch eager runs the exported model."""
    torch.manual_seed(WEIGHT_SEED)
    module = model.make_module().eval()
    torch.manual_seed(INPUT_SEED)
    inputs = model.make_inputs()
    if model.quantize:
        module = quantize_pt2e(module, inputs, model.per_channel)
    return module, inputs


def export_one(name: str, model: RealModel, destination: Path) -> None:
    """Write one model's folder under `destination` and check it with ExecuTorch's runtime."""
    module, inputs = prepare(model)
    outputs = run_eager(module, FORWARD, inputs)
    pte = lower(name, model, module, inputs)

    folder = destination / name
    folder.mkdir(parents=True, exist_ok=True)
    pte_path = folder / f"{name}.pte"
    pte_path.write_bytes(pte)
    write_selected_operators(pte_path, folder / "selected_operators.yaml")

    if model.quantize:
        # The reference is ExecuTorch's runtime; say how far PyTorch's reference is from it.
        reference = runtime_outputs(pte_path, inputs)
        worst = max(float((a - b).abs().max()) for a, b in zip(reference, outputs, strict=True))
        print(f"{name}: ExecuTorch runtime vs PyTorch's quantized reference: max |diff| {worst}")
        outputs = reference
    save_arrays(folder, inputs, outputs)
    check_with_runtime(name, pte_path, FORWARD, inputs, outputs, model.atol)
    if model.dynamic_tokens is not None:
        torch.manual_seed(INPUT_SEED)
        for count in (2, model.dynamic_tokens):
            variant = _tokens(count)
            label = f"{name}[{count} tokens]"
            want = run_eager(module, FORWARD, variant)
            check_with_runtime(label, pte_path, FORWARD, variant, want, model.atol)
    shapes = ", ".join(str(tuple(t.shape)) for t in flatten_outputs(outputs))
    print(f"{name}: {len(pte):,} bytes; outputs {shapes}")


def changed_files(fresh: Path, committed: Path) -> list[str]:
    """Files of `fresh` whose bytes differ from (or are missing in) `committed`."""
    changed = []
    for path in sorted(fresh.rglob("*")):
        if path.is_file():
            old = committed / path.relative_to(fresh)
            if not old.is_file() or not filecmp.cmp(path, old, shallow=False):
                changed.append(str(path.relative_to(fresh)))
    return changed


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", nargs="+", choices=sorted(REAL_MODELS), metavar="NAME")
    parser.add_argument(
        "--check", action="store_true", help="export into a scratch folder and compare only"
    )
    args = parser.parse_args(argv)
    # One thread: a parallel reduction may split work by core count and change low bits.
    torch.set_num_threads(1)
    selected = [name for name in REAL_MODELS if not args.only or name in args.only]
    with tempfile.TemporaryDirectory() as scratch:
        for name in selected:
            export_one(name, REAL_MODELS[name], Path(scratch))
            # gen_oplist names the program by its file name only, so the folder can move.
            changed = changed_files(Path(scratch) / name, MODELS_DIR / name)
            print(f"{name}: {'changed: ' + ', '.join(changed) if changed else 'unchanged'}")
            if not args.check:
                shutil.rmtree(MODELS_DIR / name, ignore_errors=True)
                shutil.copytree(Path(scratch) / name, MODELS_DIR / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
