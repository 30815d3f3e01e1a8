"""The latency benchmark's models: every one as (program, inputs, eager module).

Runs in the dev-only environment with torch + executorch (+ torchvision for the eager
MobileNetV2 and ResNet), never in the project's own. Two jobs:

* ``export``: the models too big to commit (a 2048->4096->2048 MLP, a 4-layer transformer
  with d=256 over 64 tokens, a ViT-shaped net in plain torch, torchvision's SqueezeNet 1.1
  and EfficientNet-B0, BERT-tiny and a conv speech net in plain torch) are exported with
  ExecuTorch's exporter into the git-ignored cache ``benchmarks/models/<name>/`` (same
  layout as ``examples/models``); a model whose folder already holds its program is kept
  (``--force`` re-exports).
* ``xnnpack NAME``: the same eager model, same weights, lowered with ExecuTorch's
  XnnpackPartitioner into ``benchmarks/models/<name>/<name>.xnnpack.pte`` (kept when there).
* ``eager(name)``: the PyTorch module and inputs of any benchmark model, rebuilt from the
  same seeds as its export, for the torch-eager column (used by ``latency_worker.py``).

Usage::

    /work/et-venv/bin/python benchmarks/latency_models.py export [--force] [NAME ...]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / "benchmarks" / "models"
sys.path.insert(0, str(REPO / "examples"))

import export_models  # noqa: E402
import export_real_models  # noqa: E402
from export_real_models import RealModel  # noqa: E402


class BigMlp(nn.Module):
    """Linear(2048, 4096) -> ReLU -> Linear(4096, 2048): 16.8 M parameters (67 MB)."""

    def __init__(self) -> None:
        super().__init__()
        self.up = nn.Linear(2048, 4096)
        self.down = nn.Linear(4096, 2048)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(torch.relu(self.up(x)))


class EncoderLayer(nn.Module):
    """Pre-norm multi-head self-attention and a GELU MLP, written out (nn.Transformer's
    fused fast path is not what a program exported from a phone model would hold)."""

    def __init__(self, width: int, heads: int, hidden: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, hidden)
        self.fc2 = nn.Linear(hidden, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, width = x.shape
        head_width = width // self.heads
        qkv = self.qkv(self.norm1(x)).view(batch, tokens, 3, self.heads, head_width)
        query, key, value = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        scores = query @ key.transpose(-2, -1) / math.sqrt(head_width)
        mixed = (torch.softmax(scores, dim=-1) @ value).transpose(1, 2).reshape(x.shape)
        x = x + self.proj(mixed)
        return x + self.fc2(functional.gelu(self.fc1(self.norm2(x))))


class Transformer(nn.Module):
    """4 encoder layers, d=256, 4 heads, MLP 1024, over (1, 64, 256)."""

    def __init__(self, layers: int = 4, width: int = 256) -> None:
        super().__init__()
        self.layers = nn.Sequential(*(EncoderLayer(width, 4, 4 * width) for _ in range(layers)))
        self.norm = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.layers(x))


class VisionTransformer(nn.Module):
    """ViT-shaped but small, in plain torch: a 224x224 image cut into 16x16 patches by a
    stride-16 convolution, a class token, learned position embeddings, 4 pre-norm encoder
    layers of width 192 (3 heads, GELU MLP 768: ViT-Ti's width at a third of its depth),
    a final LayerNorm and a linear head on the class token.

    Written out rather than taken from torchvision: the registry's torchvision wheel is a
    CUDA build whose plain `import torchvision` fails next to the CPU torch of the dev
    environment (`operator torchvision::nms does not exist`), so anything that imports it
    without the stub of `export_real_models._import_torchvision` breaks the export; the
    registry has no CPU build, and this model needs none of torchvision's code.
    """

    def __init__(
        self, image: int = 224, patch: int = 16, layers: int = 4, width: int = 192
    ) -> None:
        super().__init__()
        tokens = (image // patch) ** 2 + 1  # the patches and the class token
        self.patch_embed = nn.Conv2d(3, width, kernel_size=patch, stride=patch)
        self.class_token = nn.Parameter(0.02 * torch.randn(1, 1, width))
        self.position = nn.Parameter(0.02 * torch.randn(1, tokens, width))
        self.layers = nn.Sequential(*(EncoderLayer(width, 3, 4 * width) for _ in range(layers)))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, 1000)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        patches = self.patch_embed(image).flatten(2).transpose(1, 2)  # (batch, 196, width)
        token = self.class_token.expand(patches.shape[0], -1, -1)
        x = torch.cat([token, patches], dim=1) + self.position
        return self.head(self.norm(self.layers(x))[:, 0])


class BertTiny(nn.Module):
    """BERT-tiny's shape (google/bert_uncased_L-2_H-128_A-2) in plain torch: token, position
    and segment embeddings, LayerNorm, 2 post-norm encoder layers of width 128 (2 heads, GELU
    MLP 512), a tanh pooler on the first token; 128 tokens of a 30522-word vocabulary."""

    def __init__(self, vocabulary: int = 30522, width: int = 128, layers: int = 2) -> None:
        super().__init__()
        self.words = nn.Embedding(vocabulary, width)
        self.positions = nn.Embedding(512, width)
        self.segments = nn.Embedding(2, width)
        self.norm = nn.LayerNorm(width, eps=1e-12)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(width, 2, 4 * width, 0.0, "gelu", batch_first=True)
            for _ in range(layers)
        )
        self.pooler = nn.Linear(width, width)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(tokens.shape[1]).unsqueeze(0)
        x = self.norm(self.words(tokens) + self.positions(positions) + self.segments(0 * tokens))
        for layer in self.layers:
            x = layer(x)
        return torch.tanh(self.pooler(x[:, 0]))


class SpeechConvNet(nn.Module):
    """A Wav2Letter-style acoustic model: 80 log-mel features x 200 frames through a
    stride-2 1-D convolution stem and 6 more (kernel 11..1, 256 channels), each with batch
    norm and ReLU, to 29 character logits per frame."""

    def __init__(self, features: int = 80, width: int = 256, classes: int = 29) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        shapes = [(features, width, 11, 2)] + [(width, width, 11, 1)] * 3 + [(width, 512, 1, 1)]
        for cin, cout, kernel, stride in shapes:
            layers += [
                nn.Conv1d(cin, cout, kernel, stride, kernel // 2, bias=False),
                nn.BatchNorm1d(cout),
                nn.ReLU(),
            ]
        layers.append(nn.Conv1d(512, classes, 1))
        self.net = nn.Sequential(*layers)
        with torch.no_grad():
            for module in self.net.modules():
                if isinstance(module, nn.BatchNorm1d):
                    module.running_mean.copy_(0.1 * torch.randn(module.num_features))
                    module.running_var.copy_(0.5 + torch.rand(module.num_features))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.net(features)


def _torchvision_model(name: str) -> Callable[[], nn.Module]:
    def make() -> nn.Module:
        module: nn.Module = getattr(export_real_models._import_torchvision().models, name)()
        return export_real_models._randomise_batch_norm(module)

    return make


BENCH_MODELS: dict[str, RealModel] = {
    "mlp_big": RealModel(BigMlp, lambda: (torch.randn(4, 2048),), atol=1e-4),
    "transformer": RealModel(Transformer, lambda: (torch.randn(1, 64, 256),), atol=1e-4),
    "vit": RealModel(VisionTransformer, lambda: (torch.randn(1, 3, 224, 224),), atol=1e-4),
    "squeezenet": RealModel(
        _torchvision_model("squeezenet1_1"), lambda: (torch.randn(1, 3, 224, 224),), atol=1e-4
    ),
    "efficientnet_b0": RealModel(
        _torchvision_model("efficientnet_b0"), lambda: (torch.randn(1, 3, 224, 224),), atol=1e-4
    ),
    "bert_tiny": RealModel(BertTiny, lambda: (torch.randint(0, 30522, (1, 128)),), atol=1e-4),
    "speech": RealModel(SpeechConvNet, lambda: (torch.randn(1, 80, 200),), atol=1e-4),
}


# Channels-last copies of conv nets (Note [Channels last], runtime/executor/channels_last.h):
# the same module, weights and input, moved to torch.channels_last before the export, so
# the program's activations and weights are channels last. Checked against eager by the
# runners that read them (ExecuTorch 1.5.1's portable batch norm refuses such an input).
CHANNELS_LAST = {"resnet_nhwc": "resnet", "mobilenet_v2_nhwc": "mobilenet_v2"}


def export_channels_last(name: str) -> None:
    from executorch.exir import to_edge

    module, inputs = export_real_models.prepare(export_real_models.REAL_MODELS[CHANNELS_LAST[name]])
    module = module.to(memory_format=torch.channels_last)
    inputs = tuple(t.to(memory_format=torch.channels_last) for t in inputs)
    outputs = export_models.run_eager(module, export_models.FORWARD, inputs)
    program = to_edge(torch.export.export(module, inputs)).to_executorch()
    folder = CACHE / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.pte").write_bytes(program.buffer)
    export_models.save_arrays(folder, inputs, outputs)
    print(f"{name}: {len(program.buffer):,} bytes")


def eager(name: str) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """The eager module and inputs of a benchmark model (small example, real or cached);
    `<name>_cl`: model `<name>` and its inputs in `torch.channels_last` (Note [Channels
    last], channels_last_models.py)."""
    if name.endswith("_cl"):
        module, inputs = eager(name.removesuffix("_cl"))
        last = torch.channels_last
        return module.to(memory_format=last), tuple(t.to(memory_format=last) for t in inputs)
    if name in export_models.EXAMPLES:
        module, inputs = export_models.build(export_models.EXAMPLES[name])
        return module, inputs[export_models.FORWARD]
    model = export_real_models.REAL_MODELS.get(name) or BENCH_MODELS.get(name)
    if model is None:
        raise KeyError(f"no eager definition for benchmark model {name!r}")
    return export_real_models.prepare(model)


def export(force: bool, names: list[str]) -> None:
    """Export the big models `names` (all when empty) into the cache folder."""
    torch.set_num_threads(1)
    for name, model in BENCH_MODELS.items():
        if names and name not in names:
            continue
        if (CACHE / name / f"{name}.pte").is_file() and not force:
            print(f"{name}: cached in {CACHE / name}")
            continue
        export_real_models.export_one(name, model, CACHE)
    for name in CHANNELS_LAST:
        if name not in names:  # only when asked: the plain ones are what `latency.py` runs
            continue
        if (CACHE / name / f"{name}.pte").is_file() and not force:
            print(f"{name}: cached in {CACHE / name}")
            continue
        export_channels_last(name)


def xnnpack_program(name: str) -> Path:
    """The model `name` (eager, same weights and inputs as its export) lowered to XNNPACK,
    cached beside its other files: ExecuTorch's recommended CPU path."""
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    folder = CACHE / name
    path = folder / f"{name}.xnnpack.pte"
    if path.is_file():
        return path
    module, inputs = eager(name)
    exported = torch.export.export(module, inputs)
    lowered = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    folder.mkdir(parents=True, exist_ok=True)
    path.write_bytes(lowered.to_executorch().buffer)
    return path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    job = sub.add_parser("export", help="export the big models into benchmarks/models/")
    job.add_argument("--force", action="store_true", help="re-export cached models too")
    job.add_argument("names", nargs="*", help=f"of {', '.join(BENCH_MODELS)} (default: all)")
    lower = sub.add_parser("xnnpack", help="lower models to XNNPACK into benchmarks/models/")
    lower.add_argument("names", nargs="+", help="benchmark model names")
    args = parser.parse_args(argv)
    if args.command == "xnnpack":
        for name in args.names:
            print(xnnpack_program(name))
        return 0
    unknown = sorted(set(args.names) - set(BENCH_MODELS) - set(CHANNELS_LAST))
    if unknown:
        parser.error(f"no benchmark model {', '.join(unknown)} (known: {', '.join(BENCH_MODELS)})")
    export(args.force, args.names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
