"""Export the channels-last convolution programs of tests/runtime/test_conv_channels_last.py
with ExecuTorch's own exporter.

    .venv/bin/python tests/runtime/programs/export_conv_nhwc.py [NAME ...]

Needs torch 2.13 and ExecuTorch 1.5.1 (docs/conformance.md); the tests only read what this
writes beside it: ``<name>.pte`` and ``<name>.npz`` (``in0``, ``out0``: the input and
PyTorch eager's output, contiguous). The nets are moved to ``torch.channels_last``, so every
activation and weight of the export is channels last (Note [Channels last]):

- ``conv_nhwc``: over a channels-last 1x3x29x31 image, a 7x7 stride-2 stem over 3 channels
  (no bias, batch norm, relu), a 3x3 stride-1 layer (batch norm, relu6), a 1x1 stride-1
  one over 15x16 pixels (bias, relu), a 3x3 stride-2 one (batch norm, relu), a grouped 3x3
  one (4 groups, bias, hardtanh), a 1x1 stride-2 downsample (no bias), a 2x2 one down to
  3x3 pixels and a 1x1 one over them (bias, no activation), plus a 3x3 one over 7x8 pixels
  of 40 channels from a second, pooled branch: Note [Channels-last GEMM] in each shape.
- ``conv_nhwc_stem``: the same net with a contiguous (NCHW) input: its stem reads an NCHW
  input into a channels-last out.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
from export_prepared import _randomize_norms, _save_npz
from torch import nn
from torch.nn import functional

HERE = Path(__file__).resolve().parent


class ConvNhwc(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 7, 2, 3, bias=False), nn.BatchNorm2d(16), nn.ReLU()
        )
        self.three = nn.Sequential(
            nn.Conv2d(16, 24, 3, 1, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU6()
        )
        self.one = nn.Conv2d(24, 40, 1)
        self.down = nn.Sequential(
            nn.Conv2d(40, 48, 3, 2, 1, bias=False), nn.BatchNorm2d(48), nn.ReLU()
        )
        self.grouped = nn.Conv2d(48, 64, 3, 1, 1, groups=4)
        self.downsample = nn.Conv2d(64, 72, 1, 2, bias=False)
        self.two = nn.Conv2d(72, 36, 2)
        self.last = nn.Conv2d(36, 20, 1)
        self.seven = nn.Conv2d(40, 8, 3, 1, 1)
        _randomize_norms(self)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.relu(self.one(self.three(self.stem(x))))
        side = self.seven(functional.avg_pool2d(x, 2))
        x = functional.hardtanh(self.grouped(self.down(x)), -0.5, 0.75)
        return self.last(self.two(self.downsample(x))), side


def export(name: str) -> None:
    from executorch.exir import to_edge

    torch.manual_seed(0)
    module = ConvNhwc().eval().to(memory_format=torch.channels_last)
    torch.manual_seed(1)
    x = torch.randn(1, 3, 29, 31)
    if name == "conv_nhwc":
        x = x.to(memory_format=torch.channels_last)
    with torch.no_grad():
        outputs = module(x)
    program = to_edge(torch.export.export(module, (x,))).to_executorch()
    (HERE / f"{name}.pte").write_bytes(program.buffer)
    arrays = {"in0": x.contiguous().numpy()}
    arrays |= {f"out{i}": t.contiguous().numpy() for i, t in enumerate(outputs)}
    _save_npz(HERE / f"{name}.npz", arrays)
    print(f"{name}: {len(program.buffer):,} bytes, {len(outputs)} outputs")


NAMES = ("conv_nhwc", "conv_nhwc_stem")


def main() -> int:
    torch.set_num_threads(1)
    for name in sys.argv[1:] or NAMES:
        export(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
