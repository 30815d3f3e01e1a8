"""Single calls of a conv net, NCHW against channels last (Note [Channels last],
runtime/executor/channels_last.h), each a program of its own exported by ExecuTorch, timed on
one runner: SqueezeNet's and ResNet's max pools, a residual add, an SE block's gate, and the
depthwise layers of MobileNetV2.

Usage (from the repository root, with a Python that has torch 2.13 and ExecuTorch 1.5.1)::

    python benchmarks/channels_last_calls.py RUNNER [--rounds 8] [--iterations 50]

Every program takes its inputs contiguous: the runner copies a channels-last method input
element by element before each run (Method::set_input), which leaves its cache lines in a
state that slows the run's first calls (a relu 1.4-2.3x), so the channels-last program makes
its input channels last itself (`x.contiguous(memory_format=torch.channels_last)`: one
_to_dim_order_copy), and that copy alone is timed too: the call's time is the difference.
Prints, per call, the least of `--rounds` runner means (`--iterations` runs each, the
programs alternating). Wall time: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional

Factory = Callable[[], tuple[nn.Module, tuple[torch.Tensor, ...]]]


class Pool(nn.Module):
    def __init__(self, padding: int, ceil: bool) -> None:
        super().__init__()
        self.padding, self.ceil = padding, ceil

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return functional.max_pool2d(x, 3, 2, self.padding, ceil_mode=self.ceil)


class Residual(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + x)


class Gate(nn.Module):
    def forward(self, x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(gate)


class Depthwise(nn.Module):
    def __init__(self, channels: int, stride: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, stride, 1, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return functional.relu6(self.conv(x))


def _image(*shape: int) -> torch.Tensor:
    return torch.randn(*shape)


CALLS: dict[str, Factory] = {
    "max pool 3/2 ceil, 1x64x111x111": lambda: (Pool(0, True), (_image(1, 64, 111, 111),)),
    "max pool 3/2 ceil, 1x128x55x55": lambda: (Pool(0, True), (_image(1, 128, 55, 55),)),
    "max pool 3/2 ceil, 1x256x27x27": lambda: (Pool(0, True), (_image(1, 256, 27, 27),)),
    "max pool 3/2 pad 1, 1x64x112x112": lambda: (Pool(1, False), (_image(1, 64, 112, 112),)),
    "relu(x + x), 1x144x28x28": lambda: (Residual(), (_image(1, 144, 28, 28),)),
    "x * sigmoid(gate), 1x144x28x28": lambda: (
        Gate(),
        (_image(1, 144, 28, 28), _image(1, 144, 1, 1)),
    ),
    "depthwise 3x3/1 + relu6, 1x144x56x56": lambda: (
        Depthwise(144, 1),
        (_image(1, 144, 56, 56),),
    ),
    "depthwise 3x3/2 + relu6, 1x96x112x112": lambda: (
        Depthwise(96, 2),
        (_image(1, 96, 112, 112),),
    ),
    "depthwise 3x3/1 + relu6, 1x960x7x7": lambda: (
        Depthwise(960, 1),
        (_image(1, 960, 7, 7),),
    ),
}


class ChannelsLast(nn.Module):
    """`inner` (None: nothing) on its inputs made channels last."""

    def __init__(self, inner: nn.Module | None) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
        last = [t.contiguous(memory_format=torch.channels_last) for t in inputs]
        return self.inner(*last) if self.inner is not None else last[0]


def export(factory: Factory, layout: str, folder: Path) -> list[str]:
    """The program of one call in one layout ("nchw", "last", or "copy": only the copy to
    channels last), and its input files: the runner's arguments."""
    from executorch.exir import to_edge

    torch.manual_seed(0)
    module, inputs = factory()
    module = module.eval()
    if layout != "nchw":
        module = ChannelsLast(module if layout == "last" else None).to(
            memory_format=torch.channels_last
        )
    program = to_edge(torch.export.export(module, inputs)).to_executorch()
    folder.mkdir()
    (folder / "call.pte").write_bytes(program.buffer)
    arguments = [str(folder / "call.pte"), "--output-dir", str(folder)]
    for index, tensor in enumerate(inputs):
        np.save(folder / f"in{index}.npy", tensor.contiguous().numpy())
        arguments += ["--input", str(folder / f"in{index}.npy")]
    return arguments


def mean_us(runner: str, arguments: list[str], iterations: int) -> float:
    result = subprocess.run(
        [runner, *arguments, "--iterations", str(iterations)],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"mean time per run: ([\d.]+) us", result.stdout)
    if found is None:
        raise SystemExit(f"channels_last_calls: no mean time in:\n{result.stdout}")
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("runner")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=50)
    options = parser.parse_args()
    torch.set_num_threads(1)
    print(
        "| call | NCHW | copy to channels last, then the call | the copy | channels last |"
        " ratio |\n|---|---:|---:|---:|---:|---:|"
    )
    with tempfile.TemporaryDirectory() as temp:
        for index, (name, factory) in enumerate(CALLS.items()):
            layouts = [
                export(factory, layout, Path(temp) / f"{index}-{layout}")
                for layout in ("nchw", "last", "copy")
            ]
            best = [float("inf")] * len(layouts)
            for _ in range(options.rounds):
                for layout, arguments in enumerate(layouts):
                    best[layout] = min(
                        best[layout], mean_us(options.runner, arguments, options.iterations)
                    )
            nchw, both, copy = best
            print(
                f"| {name} | {nchw:.1f} µs | {both:.1f} µs | {copy:.1f} µs | "
                f"{both - copy:.1f} µs | {(both - copy) / nchw:.2f} |"
            )


if __name__ == "__main__":
    main()
