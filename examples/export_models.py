"""Export the example models used to test the selective build.

For every registered model this writes, under ``examples/models/<name>/``:

* ``<name>.pte``               the ExecuTorch program (default portable lowering);
* ``in0.npy, in1.npy, ...``    the example inputs, in call order;
* ``out0.npy, out1.npy, ...``  what PyTorch eager returns for those inputs;
* ``selected_operators.yaml``  ExecuTorch's own ``gen_oplist`` output for the program,
                               with the machine-specific model path reduced to the file name.

Each model is then loaded with ExecuTorch's Python runtime and run on the saved inputs, so a
broken export is caught here rather than in the C++ build.

Usage (needs the dev-only torch + executorch environment)::

    /work/etvenv/bin/python examples/export_models.py [--only NAME ...]

To add a model, add one ``Example`` entry to ``EXAMPLES``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import yaml
from torch import nn

MODELS_DIR = Path(__file__).resolve().parent / "models"

# The seeds are fixed per model (not carried over from the previous model), so exporting a
# subset with --only produces the same bytes as exporting everything.
WEIGHT_SEED = 0
INPUT_SEED = 1

# Bytes 4..7 of every program the runtime accepts.
PTE_IDENTIFIER = b"ET12"

ModuleFactory = Callable[[], nn.Module]
InputFactory = Callable[[], tuple[torch.Tensor, ...]]


@dataclass(frozen=True)
class Example:
    """One example model: how to build it and what its export must contain."""

    make_module: ModuleFactory
    make_inputs: InputFactory
    # Operators the lowered program is expected to call; a mismatch fails the export so a
    # change in ExecuTorch's lowering is noticed instead of silently changing the op set.
    expected_ops: frozenset[str]
    # Largest allowed |runtime - eager| difference when checking the exported program.
    atol: float = 1e-5


# --------------------------------------------------------------------------- models


class AddMul(nn.Module):
    """(x + y) * y: two elementwise float ops and no weights."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return (x + y) * y


class Mlp(nn.Module):
    """Two linear layers with a ReLU between them and a softmax at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = torch.relu(self.fc1(x))
        return torch.softmax(self.fc2(hidden), dim=-1)


def _randn(*shape: int) -> torch.Tensor:
    """A float32 tensor drawn from the (already seeded) global generator."""
    return torch.randn(*shape, dtype=torch.float32)


EXAMPLES: dict[str, Example] = {
    "add_mul": Example(
        make_module=AddMul,
        make_inputs=lambda: (_randn(2, 2), _randn(2, 2)),
        expected_ops=frozenset({"aten::add.out", "aten::mul.out"}),
    ),
    "mlp": Example(
        make_module=Mlp,
        make_inputs=lambda: (_randn(3, 16),),
        expected_ops=frozenset(
            {
                "aten::permute_copy.out",
                "aten::addmm.out",
                "aten::relu.out",
                "aten::_softmax.out",
            }
        ),
    ),
}


# --------------------------------------------------------------------------- export


def build(example: Example) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """Create the module and its inputs from fixed seeds."""
    torch.manual_seed(WEIGHT_SEED)
    module = example.make_module().eval()
    torch.manual_seed(INPUT_SEED)
    inputs = example.make_inputs()
    return module, inputs


def flatten_outputs(result: object) -> list[torch.Tensor]:
    """Turn a forward() result into the flat, ordered list of output tensors."""
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return [t for item in result for t in flatten_outputs(item)]
    raise TypeError(f"unsupported model output type {type(result).__name__}")


def lower_to_pte(module: nn.Module, inputs: tuple[torch.Tensor, ...]) -> bytes:
    """torch.export -> edge dialect -> ExecuTorch program, all with default settings."""
    # Imported here so that `--help` and the registry do not pay for loading exir.
    from executorch.exir import to_edge

    exported = torch.export.export(module, inputs)
    return bytes(to_edge(exported).to_executorch().buffer)


def save_array(path: Path, tensor: torch.Tensor) -> None:
    """Write one tensor as a C-contiguous .npy file."""
    array = np.ascontiguousarray(tensor.detach().cpu().numpy())
    np.save(path, array, allow_pickle=False)


def remove_stale_arrays(model_dir: Path) -> None:
    """Delete in*/out*.npy left by an earlier export that had more inputs or outputs."""
    for path in model_dir.glob("*.npy"):
        if re.fullmatch(r"(in|out)\d+\.npy", path.name):
            path.unlink()


def write_selected_operators(pte_path: Path, yaml_path: Path) -> None:
    """Run ExecuTorch's gen_oplist on the program and strip the absolute path it records."""
    model_path = str(pte_path.resolve())
    subprocess.run(
        [
            sys.executable,
            "-m",
            "executorch.codegen.tools.gen_oplist",
            "--model_file_path",
            model_path,
            "--output_path",
            str(yaml_path),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    text = yaml_path.read_text(encoding="utf-8")
    original = yaml.safe_load(text)
    operators = original["operators"]

    # gen_oplist records the model path as the one debug_info entry of every operator. Only
    # those lines are rewritten; everything else stays exactly as gen_oplist wrote it.
    entry = f"- {model_path}\n"
    if text.count(entry) != len(operators):
        raise RuntimeError(
            f"{yaml_path}: expected {len(operators)} debug_info lines '{entry.strip()}'"
            " (a path that YAML quotes is not supported)"
        )
    text = text.replace(entry, f"- {pte_path.name}\n")

    # Prove the edit changed nothing but those entries.
    for op in operators.values():
        if op["debug_info"] != [model_path]:
            raise RuntimeError(f"{yaml_path}: unexpected debug_info {op['debug_info']}")
        op["debug_info"] = [pte_path.name]
    if yaml.safe_load(text) != original:
        raise RuntimeError(f"{yaml_path}: rewriting debug_info changed other content")
    yaml_path.write_text(text, encoding="utf-8")


def check_operators(name: str, yaml_path: Path, expected: frozenset[str]) -> None:
    """Fail if the program calls a different set of operators than the registry says."""
    found = frozenset(yaml.safe_load(yaml_path.read_text(encoding="utf-8"))["operators"])
    if found != expected:
        raise RuntimeError(
            f"{name}: operators differ from the registry;"
            f" unexpected {sorted(found - expected)}, missing {sorted(expected - found)}"
        )


def check_with_runtime(
    name: str,
    pte_path: Path,
    inputs: Sequence[torch.Tensor],
    expected: Sequence[torch.Tensor],
    atol: float,
) -> None:
    """Run the program with ExecuTorch's own runtime and compare with the eager outputs."""
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte_path)
    method = program.load_method("forward")
    if method is None:
        raise RuntimeError(f"{name}: program has no 'forward' method")
    actual = method.execute(list(inputs))
    if len(actual) != len(expected):
        raise RuntimeError(f"{name}: runtime returned {len(actual)} outputs, eager {len(expected)}")
    for index, (got, want) in enumerate(zip(actual, expected)):
        got_array = np.asarray(got)
        want_array = want.detach().numpy()
        if got_array.dtype != want_array.dtype or got_array.shape != want_array.shape:
            raise RuntimeError(
                f"{name}: out{index} is {got_array.dtype}{got_array.shape},"
                f" expected {want_array.dtype}{want_array.shape}"
            )
        # Compare in float64 so integer and bool outputs must match exactly (atol < 1).
        diff = np.abs(got_array.astype(np.float64) - want_array.astype(np.float64))
        if diff.size and float(diff.max()) > atol:
            raise RuntimeError(f"{name}: out{index} differs from eager by {float(diff.max())}")


def export_example(name: str, example: Example) -> None:
    """Write the program, its inputs/outputs and its operator list, then check them."""
    module, inputs = build(example)
    with torch.no_grad():
        # Eager runs on clones so an in-place model cannot alter the inputs saved below.
        outputs = flatten_outputs(module(*(t.clone() for t in inputs)))
    pte = lower_to_pte(module, inputs)
    if pte[4:8] != PTE_IDENTIFIER:
        raise RuntimeError(f"{name}: program identifier is {pte[4:8]!r}, not {PTE_IDENTIFIER!r}")

    model_dir = MODELS_DIR / name
    model_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_arrays(model_dir)
    pte_path = model_dir / f"{name}.pte"
    pte_path.write_bytes(pte)
    for index, tensor in enumerate(inputs):
        save_array(model_dir / f"in{index}.npy", tensor)
    for index, tensor in enumerate(outputs):
        save_array(model_dir / f"out{index}.npy", tensor)

    yaml_path = model_dir / "selected_operators.yaml"
    write_selected_operators(pte_path, yaml_path)
    check_operators(name, yaml_path, example.expected_ops)
    check_with_runtime(name, pte_path, inputs, outputs, example.atol)
    print(f"{name}: {len(pte)} bytes, {len(inputs)} inputs, {len(outputs)} outputs")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Command line: optionally restrict the export to some models."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--only",
        nargs="+",
        choices=sorted(EXAMPLES),
        metavar="NAME",
        help=f"export only these models (default: all of {', '.join(sorted(EXAMPLES))})",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    """Export the selected models in registry order."""
    args = parse_args(argv)
    # One thread: a parallel reduction may split work by core count, which could change the
    # low bits of the eager outputs from one machine to another.
    torch.set_num_threads(1)
    selected = args.only or list(EXAMPLES)
    for name, example in EXAMPLES.items():
        if name in selected:
            export_example(name, example)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
