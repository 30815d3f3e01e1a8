"""Export the example models used to test the selective build.

For every registered model this writes, under ``examples/models/<name>/``:

* ``<name>.pte``               the ExecuTorch program (portable lowering, or XNNPACK for the
                               delegated example);
* ``in0.npy, in1.npy, ...``    the example inputs of ``forward``, in call order;
* ``out0.npy, out1.npy, ...``  what PyTorch eager returns for those inputs;
* ``<method>/in*.npy, out*.npy`` the same for every method other than ``forward``;
* ``selected_operators.yaml``  ExecuTorch's own ``gen_oplist`` output for the program,
                               with the machine-specific model path reduced to the file name.

Each model is then loaded with ExecuTorch's Python runtime and every method is run on the
saved inputs, so a broken export is caught here rather than in the C++ build.

Usage (needs the dev-only torch + executorch environment)::

    /work/etvenv/bin/python examples/export_models.py [--only NAME ...]

To add a model, add one ``Example`` entry to ``EXAMPLES``.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch
import yaml
from torch import nn
from torch.nn import functional

MODELS_DIR = Path(__file__).resolve().parent / "models"

# The seeds are fixed per model (not carried over from the previous model), so exporting a
# subset with --only produces the same bytes as exporting everything.
WEIGHT_SEED = 0
INPUT_SEED = 1

# Bytes 4..7 of every program the runtime accepts.
PTE_IDENTIFIER = b"ET12"

# The method every program has; its arrays sit directly in the model folder.
FORWARD = "forward"

# ExecuTorch's id of the XNNPACK backend, as stored in BackendDelegate.id.
XNNPACK_BACKEND = "XnnpackBackend"

Inputs = tuple[torch.Tensor, ...]
ModuleFactory = Callable[[], nn.Module]
InputFactory = Callable[[], Inputs]
Lowering = Literal["portable", "xnnpack"]


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
    # Methods exported next to `forward`: method name on the module -> its input factory.
    # Their inputs are drawn after forward's, from the same seeded generator.
    other_methods: Mapping[str, InputFactory] = field(default_factory=dict)
    # When set, dimension 0 of every input is exported as a symbolic size in [1, this].
    dynamic_batch: int | None = None
    # "xnnpack" hands what the XNNPACK partitioner accepts to that backend.
    lowering: Lowering = "portable"
    # Backend ids the program's delegates must have (empty: no delegate at all).
    expected_delegates: frozenset[str] = frozenset()

    def method_inputs(self) -> dict[str, InputFactory]:
        """Every method's input factory, forward first."""
        return {FORWARD: self.make_inputs, **self.other_methods}


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


class Conv(nn.Module):
    """A small image classifier: conv, batch norm, ReLU, two poolings, a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3, padding=1)
        self.norm = nn.BatchNorm2d(4)
        self.head = nn.Linear(16, 5)
        # Fresh running statistics (mean 0, variance 1) would make the batch norm a no-op.
        with torch.no_grad():
            self.norm.running_mean.copy_(0.1 * torch.randn(4))
            self.norm.running_var.copy_(0.5 + torch.rand(4))

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        features = torch.relu(self.norm(self.conv(image)))  # (1, 4, 8, 8)
        features = functional.max_pool2d(features, 2)  # (1, 4, 4, 4)
        features = functional.avg_pool2d(features, 2)  # (1, 4, 2, 2)
        flat = torch.flatten(torch.sigmoid(features), 1)  # (1, 16)
        return torch.log_softmax(self.head(flat), dim=-1)


class Attention(nn.Module):
    """One single-head self-attention step over embedded tokens, averaged over the tokens."""

    def __init__(self, vocabulary: int = 12, width: int = 8) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.norm = nn.LayerNorm(width)
        self.query = nn.Linear(width, width)
        self.key = nn.Linear(width, width)
        self.value = nn.Linear(width, width)
        self.scale = 1.0 / math.sqrt(width)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        hidden = self.norm(self.embed(tokens))  # (batch, tokens, width)
        scores = torch.bmm(self.query(hidden), self.key(hidden).transpose(1, 2)) * self.scale
        mixed = torch.bmm(torch.softmax(scores, dim=-1), self.value(hidden))
        return functional.gelu(mixed).mean(dim=1)


class IntOps(nn.Module):
    """int64 arithmetic, a comparison giving bool, a select, a 0-dim sum and a concatenation."""

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        product = (a + b) * a
        picked = torch.where(product > 2, product, b)
        return torch.cat([picked, a]), picked.sum()


class DoubleOps(nn.Module):
    """float64 only: tanh, clamp, exp and a subtraction."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.exp(torch.clamp(torch.tanh(x), -0.5, 0.5)) - y


class LogicalOps(nn.Module):
    """(a and b) or c on bool tensors."""

    def forward(self, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        return torch.logical_or(torch.logical_and(a, b), c)


class MixedTypes(nn.Module):
    """int32 -> float32 -> float64 -> int32 conversions between elementwise ops."""

    def forward(
        self, counts: torch.Tensor, x: torch.Tensor, y: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        single = counts.to(torch.float32) + x
        wide = single.to(torch.float64) * y
        return wide, wide.to(torch.int32)


class Reshape(nn.Module):
    """Layout changes: permute, a contiguous copy, view, unsqueeze, expand, plus a full."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        swapped = x.permute(0, 2, 1).contiguous()  # (2, 4, 3), a real copy
        rows = swapped.view(2, 12).unsqueeze(1)  # (2, 1, 12)
        return rows.expand(2, 3, 12) + torch.full((2, 3, 12), 0.5)


class Deep(nn.Module):
    """A long chain of Linear(8, 8) + ReLU layers: hundreds of kernel calls, few operators."""

    def __init__(self, depth: int = 200, width: int = 8) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for _ in range(depth):
            linear = nn.Linear(width, width)
            # Near-identity weights: with the default initialisation the activations shrink
            # layer after layer until the output no longer depends on the input.
            with torch.no_grad():
                linear.weight.copy_(torch.eye(width) + 0.05 * torch.randn(width, width))
                linear.bias.uniform_(-0.05, 0.05)
            layers += [linear, nn.ReLU()]
        self.layers = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


class DynamicBatch(nn.Module):
    """Shapes computed from the (symbolic) batch size, so the program does size arithmetic."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[0]
        hidden = torch.relu(self.fc(x.reshape(batch, 8)))  # (batch, 4)
        return hidden.reshape(batch * 2, 2)


class TwoMethods(nn.Module):
    """`forward` is a float residual layer; `twice` doubles int64 numbers."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x)) + x

    def twice(self, n: torch.Tensor) -> torch.Tensor:
        return n + n


class LinearCumsum(nn.Module):
    """Linear + ReLU (which XNNPACK takes) followed by a cumulative sum (which it leaves)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(torch.relu(self.fc(x)), dim=1)


def _randn(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """A tensor drawn in float32 from the (already seeded) global generator, then cast."""
    return torch.randn(*shape, dtype=torch.float32).to(dtype)


def _randint(low: int, high: int, *shape: int, dtype: torch.dtype = torch.int64) -> torch.Tensor:
    """Integers in [low, high) from the (already seeded) global generator."""
    return torch.randint(low, high, shape, dtype=dtype)


def _coin(*shape: int) -> torch.Tensor:
    """A bool tensor, each element true with probability one half."""
    return torch.rand(*shape) < 0.5


def _ops(*names: str) -> frozenset[str]:
    """The expected operator names of one example."""
    return frozenset(names)


EXAMPLES: dict[str, Example] = {
    "add_mul": Example(
        make_module=AddMul,
        make_inputs=lambda: (_randn(2, 2), _randn(2, 2)),
        expected_ops=_ops("aten::add.out", "aten::mul.out"),
    ),
    "mlp": Example(
        make_module=Mlp,
        make_inputs=lambda: (_randn(3, 16),),
        expected_ops=_ops(
            "aten::permute_copy.out",
            "aten::addmm.out",
            "aten::relu.out",
            "aten::_softmax.out",
        ),
    ),
    "conv": Example(
        make_module=Conv,
        make_inputs=lambda: (_randn(1, 3, 8, 8),),
        expected_ops=_ops(
            "aten::convolution.out",
            "aten::_native_batch_norm_legit_no_training.out",
            "aten::relu.out",
            "aten::max_pool2d_with_indices.out",
            "aten::avg_pool2d.out",
            "aten::sigmoid.out",
            "aten::permute_copy.out",
            "aten::addmm.out",
            "aten::_log_softmax.out",
        ),
    ),
    "attn": Example(
        make_module=Attention,
        make_inputs=lambda: (_randint(0, 12, 1, 6),),
        expected_ops=_ops(
            "aten::embedding.out",
            "aten::native_layer_norm.out",
            "aten::permute_copy.out",
            "aten::addmm.out",
            "aten::bmm.out",
            "aten::mul.out",
            "aten::_softmax.out",
            "aten::gelu.out",
            "aten::mean.out",
        ),
    ),
    "int_ops": Example(
        make_module=IntOps,
        make_inputs=lambda: (_randint(-4, 5, 6), _randint(-4, 5, 6)),
        expected_ops=_ops(
            "aten::add.out",
            "aten::mul.out",
            "aten::gt.Scalar_out",
            "aten::where.self_out",
            "aten::sum.IntList_out",
            "aten::cat.out",
        ),
    ),
    "double_ops": Example(
        make_module=DoubleOps,
        make_inputs=lambda: (_randn(2, 3, dtype=torch.float64), _randn(2, 3, dtype=torch.float64)),
        expected_ops=_ops(
            "aten::tanh.out",
            "aten::clamp.out",
            "aten::exp.out",
            "aten::sub.out",
        ),
    ),
    "half_ops": Example(
        make_module=AddMul,
        make_inputs=lambda: (_randn(2, 3, dtype=torch.float16), _randn(2, 3, dtype=torch.float16)),
        expected_ops=_ops("aten::add.out", "aten::mul.out"),
    ),
    "bool_ops": Example(
        make_module=LogicalOps,
        make_inputs=lambda: (_coin(6), _coin(6), _coin(6)),
        expected_ops=_ops("aten::logical_and.out", "aten::logical_or.out"),
    ),
    "mixed": Example(
        make_module=MixedTypes,
        make_inputs=lambda: (
            _randint(-3, 4, 4, dtype=torch.int32),
            _randn(4),
            _randn(4, dtype=torch.float64),
        ),
        expected_ops=_ops(
            "dim_order_ops::_to_dim_order_copy.out",
            "aten::add.out",
            "aten::mul.out",
        ),
    ),
    "reshape": Example(
        make_module=Reshape,
        make_inputs=lambda: (_randn(2, 3, 4),),
        expected_ops=_ops(
            "aten::permute_copy.out",
            "dim_order_ops::_clone_dim_order.out",
            "aten::unsqueeze_copy.out",
            "aten::expand_copy.out",
            "aten::full.out",
            "aten::add.out",
        ),
    ),
    "deep": Example(
        make_module=Deep,
        make_inputs=lambda: (_randn(2, 8),),
        expected_ops=_ops("aten::permute_copy.out", "aten::addmm.out", "aten::relu.out"),
    ),
    "dynamic": Example(
        make_module=DynamicBatch,
        make_inputs=lambda: (_randn(3, 2, 4),),
        expected_ops=_ops(
            "aten::sym_size.int",
            "executorch_prim::et_view.default",
            "aten::permute_copy.out",
            "aten::addmm.out",
            "aten::relu.out",
            "executorch_prim::mul.Scalar",
            "aten::view_copy.out",
        ),
        dynamic_batch=8,
    ),
    "multi_method": Example(
        make_module=TwoMethods,
        make_inputs=lambda: (_randn(2, 4),),
        expected_ops=_ops(
            "aten::permute_copy.out",
            "aten::addmm.out",
            "aten::relu.out",
            "aten::add.out",
        ),
        other_methods={"twice": lambda: (_randint(-9, 10, 5),)},
    ),
    "xnnpack": Example(
        make_module=LinearCumsum,
        make_inputs=lambda: (_randn(3, 4),),
        expected_ops=_ops("aten::cumsum.out"),
        lowering="xnnpack",
        expected_delegates=frozenset({XNNPACK_BACKEND}),
    ),
}


# --------------------------------------------------------------------------- export


class MethodAsForward(nn.Module):
    """Presents one method of a module as `forward`, which is what torch.export traces."""

    def __init__(self, module: nn.Module, method: str) -> None:
        super().__init__()
        self.module = module
        self.method = method

    def forward(self, *args: torch.Tensor) -> Any:
        return getattr(self.module, self.method)(*args)


@dataclass(frozen=True)
class Lowered:
    """A serialized program and what the lowering says is inside it."""

    pte: bytes
    methods: frozenset[str]
    delegates: frozenset[str]


def build(example: Example) -> tuple[nn.Module, dict[str, Inputs]]:
    """Create the module and every method's inputs from fixed seeds."""
    torch.manual_seed(WEIGHT_SEED)
    module = example.make_module().eval()
    torch.manual_seed(INPUT_SEED)
    inputs = {method: make() for method, make in example.method_inputs().items()}
    return module, inputs


def flatten_outputs(result: object) -> list[torch.Tensor]:
    """Turn a method's result into the flat, ordered list of output tensors."""
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return [t for item in result for t in flatten_outputs(item)]
    raise TypeError(f"unsupported model output type {type(result).__name__}")


def run_eager(module: nn.Module, method: str, inputs: Inputs) -> list[torch.Tensor]:
    """What PyTorch itself returns; runs on clones so an in-place model cannot alter inputs."""
    with torch.no_grad():
        return flatten_outputs(getattr(module, method)(*(t.clone() for t in inputs)))


def export_method(
    module: nn.Module, method: str, inputs: Inputs, dynamic_batch: int | None
) -> torch.export.ExportedProgram:
    """torch.export one method, with a symbolic dimension 0 when asked."""
    traced = module if method == FORWARD else MethodAsForward(module, method)
    dynamic_shapes = None
    if dynamic_batch is not None:
        batch = torch.export.Dim("batch", min=1, max=dynamic_batch)
        dynamic_shapes = tuple({0: batch} for _ in inputs)
    return torch.export.export(traced, inputs, dynamic_shapes=dynamic_shapes)


def lower_to_pte(module: nn.Module, inputs: dict[str, Inputs], example: Example) -> Lowered:
    """torch.export every method -> edge dialect (maybe delegated) -> ExecuTorch program."""
    # Imported here so that `--help` and the registry do not pay for loading exir.
    from executorch.exir import to_edge, to_edge_transform_and_lower

    exported = {
        method: export_method(module, method, method_inputs, example.dynamic_batch)
        for method, method_inputs in inputs.items()
    }
    if example.lowering == "xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import (
            XnnpackPartitioner,
        )

        edge = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    else:
        edge = to_edge(exported)
    manager = edge.to_executorch()
    plans = manager.executorch_program.execution_plan
    return Lowered(
        pte=bytes(manager.buffer),
        methods=frozenset(plan.name for plan in plans),
        delegates=frozenset(delegate.id for plan in plans for delegate in plan.delegates),
    )


def save_array(path: Path, tensor: torch.Tensor) -> None:
    """Write one tensor as a C-contiguous .npy file, keeping its shape (even a 0-dim one)."""
    # Not np.ascontiguousarray: it turns a 0-dim array into shape (1,).
    array = np.array(tensor.detach().cpu().numpy(), order="C", copy=True)
    np.save(path, array, allow_pickle=False)


def remove_stale_arrays(folder: Path) -> None:
    """Delete in*/out*.npy left by an earlier export that had more inputs or outputs."""
    for path in folder.glob("*.npy"):
        if re.fullmatch(r"(in|out)\d+\.npy", path.name):
            path.unlink()


def save_arrays(folder: Path, inputs: Inputs, outputs: Sequence[torch.Tensor]) -> None:
    """Write one method's in*.npy and out*.npy, replacing whatever was there."""
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale_arrays(folder)
    for index, tensor in enumerate(inputs):
        save_array(folder / f"in{index}.npy", tensor)
    for index, tensor in enumerate(outputs):
        save_array(folder / f"out{index}.npy", tensor)


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


def check_contents(name: str, example: Example, lowered: Lowered) -> None:
    """Fail if the program's identifier, methods or delegates are not the expected ones."""
    if lowered.pte[4:8] != PTE_IDENTIFIER:
        raise RuntimeError(
            f"{name}: program identifier is {lowered.pte[4:8]!r}, not {PTE_IDENTIFIER!r}"
        )
    if lowered.methods != frozenset(example.method_inputs()):
        raise RuntimeError(f"{name}: program has methods {sorted(lowered.methods)}")
    if lowered.delegates != example.expected_delegates:
        raise RuntimeError(f"{name}: program has delegates {sorted(lowered.delegates)}")


def batch_variants(inputs: Inputs, largest: int) -> list[Inputs]:
    """Inputs with batch sizes 1 and `largest`, cut from or tiled out of the saved ones."""

    def resized(t: torch.Tensor, size: int) -> torch.Tensor:
        return torch.cat([t] * math.ceil(size / t.shape[0]))[:size]

    return [tuple(resized(t, size) for t in inputs) for size in (1, largest)]


def runtime_missing_backends(example: Example) -> list[str]:
    """The delegates of this example that the Python runtime was built without."""
    from executorch.runtime import Runtime

    registry = Runtime.get().backend_registry
    return sorted(b for b in example.expected_delegates if not registry.is_available(b))


def check_with_runtime(
    label: str,
    pte_path: Path,
    method_name: str,
    inputs: Sequence[torch.Tensor],
    expected: Sequence[torch.Tensor],
    atol: float,
) -> None:
    """Run one method with ExecuTorch's own runtime and compare with the eager outputs."""
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte_path)
    method = program.load_method(method_name)
    if method is None:
        raise RuntimeError(f"{label}: program has no {method_name!r} method")
    actual = method.execute(list(inputs))
    if len(actual) != len(expected):
        raise RuntimeError(
            f"{label}: runtime returned {len(actual)} outputs, eager {len(expected)}"
        )
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        got_array = np.asarray(got)
        want_array = want.detach().numpy()
        if got_array.dtype != want_array.dtype or got_array.shape != want_array.shape:
            raise RuntimeError(
                f"{label}: out{index} is {got_array.dtype}{got_array.shape},"
                f" expected {want_array.dtype}{want_array.shape}"
            )
        # Compare in float64 so integer and bool outputs must match exactly (atol < 1).
        diff = np.abs(got_array.astype(np.float64) - want_array.astype(np.float64))
        if diff.size and float(diff.max()) > atol:
            raise RuntimeError(f"{label}: out{index} differs from eager by {float(diff.max())}")


def export_example(name: str, example: Example) -> None:
    """Write the program, its inputs/outputs and its operator list, then check them."""
    module, inputs = build(example)
    outputs = {method: run_eager(module, method, args) for method, args in inputs.items()}
    lowered = lower_to_pte(module, inputs, example)
    check_contents(name, example, lowered)

    model_dir = MODELS_DIR / name
    model_dir.mkdir(parents=True, exist_ok=True)
    pte_path = model_dir / f"{name}.pte"
    pte_path.write_bytes(lowered.pte)
    for method in inputs:
        folder = model_dir if method == FORWARD else model_dir / method
        save_arrays(folder, inputs[method], outputs[method])

    yaml_path = model_dir / "selected_operators.yaml"
    write_selected_operators(pte_path, yaml_path)
    check_operators(name, yaml_path, example.expected_ops)

    missing = runtime_missing_backends(example)
    if missing:
        print(f"{name}: runtime check skipped, the Python runtime lacks {', '.join(missing)}")
    else:
        for method, args in inputs.items():
            label = name if method == FORWARD else f"{name}.{method}"
            check_with_runtime(label, pte_path, method, args, outputs[method], example.atol)
            if example.dynamic_batch is not None:
                for variant in batch_variants(args, example.dynamic_batch):
                    want = run_eager(module, method, variant)
                    label_n = f"{label}[batch {variant[0].shape[0]}]"
                    check_with_runtime(label_n, pte_path, method, variant, want, example.atol)

    counts = ", ".join(
        f"{method}: {len(args)} in / {len(outputs[method])} out" for method, args in inputs.items()
    )
    print(f"{name}: {len(lowered.pte)} bytes; {counts}")


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
