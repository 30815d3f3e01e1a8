"""Export the custom-operator example with ExecuTorch's own exporter.

The model calls `my_ops::mul3` and `my_ops::affine`, operators this script defines with
`torch.library` the way an ExecuTorch user defines one: the functional schema the model
calls, its out variant (ExecuTorch's `to_executorch` replaces every functional call by the
out variant of the same name and fails with "Missing out variants" when there is none), a
CPU implementation for eager runs and a fake one for `torch.export`'s tracing. The C++
kernels that serve the out variants on our runtime are `op_mul3.cpp` and `op_affine.cpp`
beside this script, declared by `custom_ops.yaml`.

It writes, under ``examples/custom_ops/model/``: ``custom_ops.pte``, ``in0.npy``,
``in1.npy`` (the inputs of ``forward``) and ``out0.npy`` (what PyTorch eager returns).
Re-running gives byte-identical files (fixed seed, deterministic exporter); ``--check``
exports into a scratch folder and only says whether the committed files are current.

ExecuTorch's Python runtime cannot check this program (its wheel has no kernels for
`my_ops`): the default `doit build` verifies it on our runner instead.

Usage (needs the dev-only torch + executorch environment, /work/shared/notes/exporting.md)::

    /work/et-venv/bin/python examples/custom_ops/export_custom_ops.py [--check]
"""

from __future__ import annotations

import argparse
import filecmp
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
from torch import nn

MODEL_DIR = Path(__file__).resolve().parent / "model"
SEED = 0
SHAPE = (2, 3, 4)

# Each operator's two schemas: what the model calls, and the out variant the program will
# call (the same text as custom_ops.yaml's `func:`, which codegen generates the unboxing from).
LIBRARY = torch.library.Library("my_ops", "DEF")
LIBRARY.define("mul3(Tensor input) -> Tensor")
LIBRARY.define("mul3.out(Tensor input, *, Tensor(a!) out) -> Tensor(a!)")
# One with non-tensor arguments, which the typed kernel receives as C++ doubles.
LIBRARY.define("affine(Tensor input, float scale, float bias) -> Tensor")
LIBRARY.define("affine.out(Tensor input, float scale, float bias, *, Tensor(a!) out) -> Tensor(a!)")


@torch.library.impl(LIBRARY, "mul3", "CompositeExplicitAutograd")
def mul3(input: torch.Tensor) -> torch.Tensor:
    """Eager implementation of the functional form: three times the input."""
    return input * 3


@torch.library.register_fake("my_ops::mul3")
def mul3_fake(input: torch.Tensor) -> torch.Tensor:
    """Shape and dtype only, for tracing: the result is shaped like the input."""
    return torch.empty_like(input)


# CompositeExplicitAutograd serves both CPU and Meta, so the out variant also runs on the
# fake tensors ExecuTorch's passes propagate through the out-variant graph.
@torch.library.impl(LIBRARY, "mul3.out", "CompositeExplicitAutograd")
def mul3_out(input: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    """Eager implementation of the out variant: writes three times the input into `out`."""
    out.copy_(input * 3)
    return out


@torch.library.impl(LIBRARY, "affine", "CompositeExplicitAutograd")
def affine(input: torch.Tensor, scale: float, bias: float) -> torch.Tensor:
    """Eager implementation of the functional form: input * scale + bias."""
    return input * scale + bias


@torch.library.register_fake("my_ops::affine")
def affine_fake(input: torch.Tensor, scale: float, bias: float) -> torch.Tensor:
    """Shape and dtype only, for tracing."""
    return torch.empty_like(input)


@torch.library.impl(LIBRARY, "affine.out", "CompositeExplicitAutograd")
def affine_out(
    input: torch.Tensor, scale: float, bias: float, *, out: torch.Tensor
) -> torch.Tensor:
    """Eager implementation of the out variant."""
    out.copy_(input * scale + bias)
    return out


class CustomOpModel(nn.Module):
    """Two custom operators around two portable ones: affine(mul3(x + y) * x, 0.5, -1)."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.ops.my_ops.affine(torch.ops.my_ops.mul3(x + y) * x, 0.5, -1.0)


def export(folder: Path) -> None:
    """Export the model and write its program, inputs and PyTorch's outputs into `folder`."""
    from executorch.exir import to_edge

    generator = torch.Generator().manual_seed(SEED)
    inputs = (
        torch.randn(SHAPE, generator=generator),
        torch.randn(SHAPE, generator=generator),
    )
    model = CustomOpModel().eval()
    with torch.no_grad():
        expected = model(*(t.clone() for t in inputs))
    program = to_edge(torch.export.export(model, inputs)).to_executorch()
    called = {
        op.name for plan in program.executorch_program.execution_plan for op in plan.operators
    }
    if not {"my_ops::mul3", "my_ops::affine"} <= called:
        raise RuntimeError(f"the program does not call both custom operators: {sorted(called)}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "custom_ops.pte").write_bytes(bytes(program.buffer))
    for name, tensor in (("in0", inputs[0]), ("in1", inputs[1]), ("out0", expected)):
        np.save(folder / f"{name}.npy", tensor.numpy(), allow_pickle=False)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed files, write nothing"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    if not args.check:
        export(MODEL_DIR)
        print(f"wrote {MODEL_DIR}")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        export(Path(scratch))
        names = sorted(path.name for path in Path(scratch).iterdir())
        _, differ, missing = filecmp.cmpfiles(MODEL_DIR, scratch, names, shallow=False)
        for name in differ + missing:
            print(f"{MODEL_DIR / name}: differs from a fresh export")
        return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
