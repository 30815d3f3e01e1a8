"""Export the channels-last programs of tests/runtime/test_channels_last.py with ExecuTorch's
own exporter (Note [Channels last], runtime/executor/channels_last.h).

    .venv/bin/python tests/runtime/programs/export_channels_last.py [NAME ...]

Needs torch 2.13 and ExecuTorch 1.5.1. Each model and its input are `channels_last`, so
the exporter writes their activations in dim order (0, 2, 3, 1); the tests read
``<name>.pte`` and ``<name>.npz`` (``in0``, ``out0``...: the inputs and eager's outputs,
stored contiguous) beside this script.

- ``nhwc_blocks``: an inverted-residual block (1x1 -> depthwise 3x3 s1 -> 1x1, residual
  add), one at stride 2 with 40 channels (a masked last block of 16), depthwise 5x5 s1
  and s2 with hardswish, an SE block (mean -> 1x1 -> SiLU -> 1x1 -> sigmoid -> mul), a
  cat along the channels, max pools (SqueezeNet's ceil_mode 3x3/2, ResNet's padded 3x3/2),
  an avg pool, then a global adaptive avg pool, a flatten and a linear layer.
- ``nhwc_pools``: pools and means whose outputs are returned: max pools with their indices
  (ceil_mode, padding), avg pools (padding, ceil_mode, count_include_pad off), a global
  adaptive avg pool, means over H and W kept and not, and elementwise calls mixing a
  channels-last tensor with a contiguous one (add, mul, relu, hardtanh, sigmoid, and a
  [N, C, 1, 1] gate broadcast per pixel).
- ``nhwc_mixed``: a contiguous input into channels-last weights (a convolution whose input
  is NCHW and out NHWC), depthwise layers both ways, and a `.contiguous()` back.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_prepared import _randomize_norms, _save_npz  # noqa: E402

HERE = Path(__file__).resolve().parent


def _conv(cin: int, cout: int, k: int = 1, stride: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)
    )


class InvertedResidual(nn.Module):
    def __init__(self, cin: int, hidden: int, cout: int, stride: int, k: int = 3) -> None:
        super().__init__()
        self.expand = _conv(cin, hidden)
        self.depthwise = _conv(hidden, hidden, k, stride, groups=hidden)
        self.project = _conv(hidden, cout)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = functional.relu6(self.expand(x))
        y = self.project(functional.relu6(self.depthwise(y)))
        return x + y if self.residual else y


class SqueezeExcite(nn.Module):
    def __init__(self, channels: int, squeezed: int) -> None:
        super().__init__()
        self.reduce = nn.Conv2d(channels, squeezed, 1)
        self.expand = nn.Conv2d(squeezed, channels, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s = x.mean((2, 3), keepdim=True)
        s = torch.sigmoid(self.expand(functional.silu(self.reduce(s))))
        return x * s


class Blocks(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = _conv(3, 16, 3)
        self.block1 = InvertedResidual(16, 48, 16, 1)
        self.block2 = InvertedResidual(16, 40, 24, 2)
        self.dw5 = _conv(24, 24, 5, 1, groups=24)
        self.dw5s2 = _conv(24, 24, 5, 2, groups=24)
        self.se = SqueezeExcite(24, 8)
        self.side = nn.Conv2d(24, 8, 1)
        self.head = nn.Linear(32, 10)
        _randomize_norms(self)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = functional.relu6(self.stem(x))
        x = self.block2(self.block1(x))
        x = functional.hardswish(self.dw5(x))
        x = self.se(x)
        x = torch.cat([x, torch.relu(self.side(x))], 1)
        x = functional.max_pool2d(x, 3, 2, ceil_mode=True)
        x = functional.max_pool2d(x, 3, 2, padding=1)
        x = functional.avg_pool2d(x, 2, 1)
        x = functional.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.head(x)


class Pools(nn.Module):
    def forward(
        self, x: torch.Tensor, gate: torch.Tensor, flat: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        a, ia = functional.max_pool2d(x, 3, 2, ceil_mode=True, return_indices=True)
        b, ib = functional.max_pool2d(x, 3, 2, padding=1, return_indices=True)
        c = functional.avg_pool2d(x, 3, 2, padding=1)
        d = functional.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True, count_include_pad=False)
        e = functional.adaptive_avg_pool2d(x, 1)
        f = x.mean((2, 3), keepdim=True)
        g = x.mean((2, 3))
        h = x * torch.sigmoid(gate)  # an SE block's gate: [N, C, 1, 1] per pixel
        i = torch.relu(x + flat)  # channels last + contiguous
        j = functional.hardtanh(x - x * 0.5, -0.5, 0.5)
        k = e.flatten(1)
        return a, ia, b, ib, c, d, e, f, g, h, i, j, k


class Mixed(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.depthwise = nn.Conv2d(16, 16, 3, 2, 1, groups=16)
        self.plain = nn.Conv2d(16, 16, 3, 1, 1, groups=16)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        y = torch.relu(self.stem(x))  # NCHW in, NHWC out (the weight is channels last)
        z = self.depthwise(y)
        back = z.contiguous()  # NHWC -> NCHW
        w = self.plain(back)  # NCHW in (its weight channels last: NHWC out)
        return z, back, w


def _module(name: str) -> nn.Module:
    torch.manual_seed(0)
    module: nn.Module = {"nhwc_blocks": Blocks, "nhwc_pools": Pools, "nhwc_mixed": Mixed}[name]()
    return module.eval().to(memory_format=torch.channels_last)


def _inputs(name: str) -> tuple[torch.Tensor, ...]:
    torch.manual_seed(1)
    last = torch.channels_last
    if name == "nhwc_blocks":
        return (torch.randn(1, 3, 30, 34).to(memory_format=last),)
    if name == "nhwc_mixed":
        return (torch.randn(1, 3, 20, 22),)  # contiguous
    x = torch.randn(2, 21, 17, 23)
    x[0, 1, 3:6, 4:9] = 0.25  # ties: the first maximum wins
    return (
        x.to(memory_format=last),
        torch.randn(2, 21, 1, 1),
        torch.randn(2, 21, 17, 23),  # contiguous
    )


def export(name: str) -> None:
    from executorch.exir import to_edge

    module, inputs = _module(name), _inputs(name)
    with torch.no_grad():
        outputs = module(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    program = to_edge(torch.export.export(module, inputs)).to_executorch()
    (HERE / f"{name}.pte").write_bytes(program.buffer)
    arrays = {f"in{i}": t.contiguous().numpy() for i, t in enumerate(inputs)}
    arrays |= {f"out{i}": t.contiguous().numpy() for i, t in enumerate(outputs)}
    _save_npz(HERE / f"{name}.npz", arrays)
    print(f"{name}: {len(program.buffer):,} bytes, {len(outputs)} outputs")


NAMES = ("nhwc_blocks", "nhwc_pools", "nhwc_mixed")


def main() -> int:
    torch.set_num_threads(1)
    for name in sys.argv[1:] or NAMES:
        export(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
