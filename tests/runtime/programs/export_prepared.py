"""Export the programs of tests/runtime/test_fusion.py with ExecuTorch's own exporter.

    .venv/bin/python tests/runtime/programs/export_prepared.py [NAME ...]

Needs torch 2.13 and ExecuTorch 1.5.1 (docs/conformance.md); the tests only
read what this writes beside it: ``<name>.pte`` and ``<name>.npz`` (``in0``, ``out0``...:
the inputs and PyTorch eager's outputs, which ExecuTorch's runtime is checked to match).

- ``conv_chains``: convolution -> batch norm -> relu6 / hardswish / SiLU / nothing, a
  convolution with bias -> relu, one -> clamp, one -> sigmoid (a gate), and a convolution
  whose out is read twice (a residual: not fusable), over a 1x3x16x16 image: every chain
  Note [Fusion at load] rewrites, and one it must not.
- ``conv_chains_channels_last``: the same net with a channels-last input and weights
  (checked against eager alone: ExecuTorch 1.5.1's portable batch norm refuses a
  channels-last input).
- ``depthwise_chains``: depthwise convolutions -> batch norm -> relu / SiLU / relu6 / a
  sigmoid gate, 3x3 and 5x5 at stride 1 and 2 over a 1x8x20x40 image down to 3x5 planes:
  each epilogue of Note [Direct depthwise], on rows with interior and border chunks and on
  planes of fewer rows than a block; and two 1x1 convolutions -> relu whose input is read in
  place as the GEMM's panels, over 200 pixels (a narrow last panel) and 15 (only one).
- ``max_pool_ceil``: ceil_mode 3x3/2 max pools (with and without padding, SqueezeNet's and
  ResNet's), a 3x3/1 one, with indices returned: Note [Max pool in registers]; and a 2x2/2
  one whose indices nobody reads: Note [Unread outs].
- ``fire_cats``: two SqueezeNet Fire modules (squeeze 1x1 -> relu, then a 1x1 and a 3x3
  expand -> relu, their outs concatenated along the channels), whose cats Note [Cats in
  place] places; and cats it must leave: one with an input another call also reads, one of
  the method's input, and one along the rows of a several-channel tensor (its inputs are no
  runs of its out).
- ``conv_pools``: convolutions between max pools (one with its indices unread, one whose
  indices the method returns), an add, relu and average pool into a mean, a depthwise layer
  into a view: the sets of tensors Note [Channels last] changes together or leaves.
- ``patch_tokens``: a ViT's patch convolution flattened into tokens, and a convolution ->
  relu whose out a flatten also reads: views the exporter's memory planning makes aliases
  with no instruction (Note [Aliases in planned memory]).
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional

HERE = Path(__file__).resolve().parent
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _randomize_norms(net: nn.Module) -> None:
    """Batch norms with statistics and affine values far from the identity."""
    with torch.no_grad():
        for module in net.modules():
            if isinstance(module, nn.BatchNorm2d):
                count = module.num_features
                module.running_mean.copy_(0.5 * torch.randn(count))
                module.running_var.copy_(0.5 + torch.rand(count))
                module.weight.copy_(1.0 + 0.3 * torch.randn(count))
                module.bias.copy_(0.3 * torch.randn(count))


class ConvChains(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU6()
        )
        self.depthwise = nn.Sequential(
            nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8, bias=False),
            nn.BatchNorm2d(8),
            nn.Hardswish(),
        )
        self.project = nn.Sequential(nn.Conv2d(8, 16, 1), nn.BatchNorm2d(16))
        self.relu_conv = nn.Conv2d(16, 16, 3, padding=1)
        self.clamp_conv = nn.Conv2d(16, 16, 1)
        self.silu_conv = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.silu_norm = nn.BatchNorm2d(16)
        self.gate_conv = nn.Conv2d(16, 16, 1)
        self.residual_conv = nn.Conv2d(16, 16, 3, padding=1)
        _randomize_norms(self)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.project(self.depthwise(self.stem(x)))
        x = torch.relu(self.relu_conv(x))
        x = torch.clamp(self.clamp_conv(x), -0.5, 0.75)
        x = functional.silu(self.silu_norm(self.silu_conv(x)))
        x = x * torch.sigmoid(self.gate_conv(x))
        y = self.residual_conv(x)
        return torch.relu(y) + y


def _depthwise(channels: int, k: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(channels, channels, k, stride, k // 2, groups=channels, bias=False),
        nn.BatchNorm2d(channels),
    )


class DepthwiseChains(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.relu = _depthwise(8, 3, 1)
        self.silu = _depthwise(8, 5, 1)
        self.relu6 = _depthwise(8, 3, 2)
        self.gate = nn.Conv2d(8, 8, 5, 1, 2, groups=8)
        self.mix = nn.Conv2d(8, 8, 1)
        self.narrow = _depthwise(8, 5, 2)
        self.small = _depthwise(8, 3, 2)
        self.project = nn.Conv2d(8, 40, 1)
        _randomize_norms(self)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.relu(x))
        x = functional.silu(self.silu(x))
        x = functional.relu6(self.relu6(x))
        x = x * torch.sigmoid(self.gate(x))
        x = torch.relu(self.mix(x))
        x = torch.relu(self.small(torch.relu(self.narrow(x))))
        return torch.relu(self.project(x))


class MaxPools(nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        a, ia = functional.max_pool2d(x, 3, 2, ceil_mode=True, return_indices=True)
        b, ib = functional.max_pool2d(x, 3, 2, padding=1, ceil_mode=True, return_indices=True)
        c, ic = functional.max_pool2d(x, 3, 1, padding=1, return_indices=True)
        d = functional.max_pool2d(x, 2, 2, ceil_mode=True)
        return a, ia, b, ib, c, ic, d


class Fire(nn.Module):
    def __init__(self, channels: int, squeeze: int, expand: int) -> None:
        super().__init__()
        self.squeeze = nn.Conv2d(channels, squeeze, 1)
        self.expand1 = nn.Conv2d(squeeze, expand, 1)
        self.expand3 = nn.Conv2d(squeeze, expand, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s = torch.relu(self.squeeze(x))
        return torch.cat([torch.relu(self.expand1(s)), torch.relu(self.expand3(s))], 1)


class FireCats(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fire1 = Fire(3, 4, 8)
        self.fire2 = Fire(16, 6, 12)
        self.side = nn.Conv2d(24, 5, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        y = self.fire2(self.fire1(x))
        side = self.side(y)
        read_twice = torch.cat([side, y], 1) + side.sum()  # side is read by the sum too
        with_input = torch.cat([x, self.fire1(x)], 1)  # x is the method's input
        along_rows = torch.cat([side, torch.relu(side)], 2)  # 5 channels: no runs of the out
        return y, read_twice, with_input, along_rows


class ConvPools(nn.Module):
    """Note [Channels last]'s sets: a max pool whose indices nobody reads, between two
    convolutions (its tensors change); one whose indices are the method's output (its
    tensors stay, and so does the out of the convolution before it); an add, relu and
    average pool after a convolution, into a mean, which would change but for a depthwise
    layer that also reads the convolution's out and whose own out a view reads."""

    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Conv2d(3, 8, 3, padding=1)
        self.second = nn.Conv2d(8, 16, 3, padding=1)
        self.third = nn.Conv2d(16, 16, 1)
        self.depthwise = nn.Conv2d(16, 16, 3, padding=1, groups=16)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        a = torch.relu(self.first(x))
        b = self.second(functional.max_pool2d(a, 3, 2, ceil_mode=True))
        q, indices = functional.max_pool2d(b, 2, 2, return_indices=True)
        c = self.third(q)
        d = functional.avg_pool2d(c + torch.relu(c), 2)
        flat = self.depthwise(c).flatten(1)  # its out read by a view: c's set stays with it
        return d.mean((2, 3)), indices, flat


class PatchTokens(nn.Module):
    """Note [Aliases in planned memory]: a ViT's stem (a stride-4 convolution cut into
    patches, flattened and transposed into tokens), whose flatten the exporter's memory
    planning makes a second tensor over the convolution's out with no instruction between
    them; and a convolution -> relu chain whose pre-activation out such a view also reads
    (were it fused, nobody would write what the view reads)."""

    def __init__(self) -> None:
        super().__init__()
        self.patch = nn.Conv2d(3, 16, 4, stride=4)
        self.position = nn.Parameter(0.1 * torch.randn(1, 64, 16))
        self.conv = nn.Conv2d(3, 8, 4, stride=4)
        self.after = nn.Conv2d(8, 8, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        tokens = self.patch(x).flatten(2).transpose(1, 2) + self.position
        y = self.conv(x)
        return tokens, self.after(torch.relu(y)), y.flatten(2).sum(-1)


def _inputs(name: str) -> tuple[torch.Tensor, ...]:
    torch.manual_seed(1)
    if name == "patch_tokens":
        return (torch.randn(1, 3, 32, 32),)
    if name == "fire_cats":
        return (torch.randn(1, 3, 13, 15),)
    if name == "max_pool_ceil":
        x = torch.randn(1, 4, 27, 45)  # rows of 22 and 23 pooled outputs: blocks of 16 too
        x[0, 1, 3:6, 4:9] = 0.25  # ties: the first maximum wins
        return (x,)
    if name == "depthwise_chains":
        return (torch.randn(1, 8, 20, 40),)
    if name == "conv_pools":
        return (torch.randn(1, 3, 23, 29),)
    x = torch.randn(1, 3, 16, 16)
    if name.endswith("channels_last"):
        x = x.to(memory_format=torch.channels_last)
    return (x,)


def _module(name: str) -> nn.Module:
    torch.manual_seed(0)
    if name == "fire_cats":
        return FireCats().eval()
    if name == "max_pool_ceil":
        return MaxPools().eval()
    if name == "depthwise_chains":
        return DepthwiseChains().eval()
    if name == "conv_pools":
        return ConvPools().eval()
    if name == "patch_tokens":
        return PatchTokens().eval()
    module = ConvChains().eval()
    if name.endswith("channels_last"):
        module = module.to(memory_format=torch.channels_last)
    return module


def export(name: str) -> None:
    from executorch.exir import to_edge
    from executorch.runtime import Runtime

    module, inputs = _module(name), _inputs(name)
    with torch.no_grad():
        outputs = module(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    program = to_edge(torch.export.export(module, inputs)).to_executorch()
    pte = HERE / f"{name}.pte"
    pte.write_bytes(program.buffer)
    runnable = not name.endswith("channels_last")
    got = outputs
    if runnable:
        got = Runtime.get().load_program(pte).load_method("forward").execute(list(inputs))
    for want, have in zip(outputs, got, strict=True):
        if want.dtype == torch.int64:
            assert torch.equal(want, have), name
        else:
            torch.testing.assert_close(have, want, atol=1e-5, rtol=1e-5)
    arrays = {f"in{i}": t.contiguous().numpy() for i, t in enumerate(inputs)}
    arrays |= {f"out{i}": t.contiguous().numpy() for i, t in enumerate(outputs)}
    _save_npz(HERE / f"{name}.npz", arrays)
    print(f"{name}: {len(program.buffer):,} bytes, {len(outputs)} outputs")


def _save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """np.savez with a fixed date on every entry: a re-export writes identical bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for key, array in arrays.items():
            buffer = io.BytesIO()
            np.save(buffer, array, allow_pickle=False)
            archive.writestr(zipfile.ZipInfo(f"{key}.npy", _ZIP_DATE), buffer.getvalue())


NAMES = (
    "conv_chains",
    "conv_chains_channels_last",
    "depthwise_chains",
    "max_pool_ceil",
    "fire_cats",
    "conv_pools",
    "patch_tokens",
)


def main() -> int:
    torch.set_num_threads(1)
    for name in sys.argv[1:] or NAMES:
        export(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
