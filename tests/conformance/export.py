"""Export the conformance programs with ExecuTorch's own exporter (a development script).

    /work/et-venv/bin/python tests/conformance/export.py [--only NAME ...]

Needs torch 2.13 and ExecuTorch 1.5.1 (see docs/conformance.md); the test
suite never does: it reads what this writes into `tests/conformance/programs/`:

- `<case>.pte`: `torch.export` -> `to_edge` -> `to_executorch` of one case of `cases.py`,
  one method per dtype family (`f32`, `i64`, ...). BFloat16 has no `.npy` form, so a
  `bf16` method takes and returns float32 and casts in the program.
- `<case>.npz`: per method and run, the inputs and PyTorch's eager outputs
  (`<method>/run<r>/in<i>`, `.../out<i>`), or ExecuTorch's runtime's outputs for a case
  whose `reference` is "executorch" (its index entry says so). A case with dynamic dims
  has a second run at smaller sizes than the ones it was traced with.
- `index.json`: per program the operators it calls (read back from the `.pte` with the
  project's own reader, `codegen.pte.read_model_ops`), its methods and runs, and the
  families PyTorch itself refuses (with PyTorch's message); per operator its programs.

Every program is checked to call the operators its case names; a case that does not is
reported and not written, and the script exits 1.
"""

from __future__ import annotations

import argparse
import fcntl
import io
import json
import os
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils import _pytree

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path[:0] = [str(REPO), str(HERE)]

from cases import CASES, DTYPES, YAML_NAMES, Case  # noqa: E402
from executorch.exir import EdgeCompileConfig, to_edge  # noqa: E402

from selective_build.codegen.kernel_library import read_kernel_library  # noqa: E402
from selective_build.codegen.model import OperatorName  # noqa: E402
from selective_build.codegen.pte import read_model_ops  # noqa: E402

PROGRAMS = HERE / "programs"
LIBRARIES = {
    "portable": REPO / "kernels" / "portable" / "functions.yaml",
    "prim": REPO / "kernels" / "prim" / "functions.yaml",
    "quantized": REPO / "kernels" / "quantized" / "functions.yaml",
}
# A fixed date for every zip entry, so a re-export writes identical bytes.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def operator_name(text: str) -> str:
    """`add.out` -> `aten::add.out`, as the program and the index spell it."""
    return str(OperatorName.parse(text if "::" in text else f"aten::{text}"))


def kernel_dtypes() -> dict[str, set[str] | None]:
    """Per operator, every dtype its functions.yaml entry declares for any tensor argument
    (`dtypes:` and `argument_dtypes:`, Note [Declared dtypes]; None: no list)."""
    found: dict[str, set[str] | None] = {}
    for name, path in LIBRARIES.items():
        for kernel in read_kernel_library(name, path, path.parent).kernels:
            dtypes = kernel.dtypes
            found[str(kernel.op)] = None if dtypes is None else {t.name for t in dtypes}
    return found


class Program(torch.nn.Module):
    """`fn`, with BFloat16 inputs given as float32 and BFloat16 outputs returned as float32."""

    def __init__(self, case: Case, bfloat16: bool) -> None:
        super().__init__()
        self.case = case
        self.bfloat16 = bfloat16

    def forward(self, *xs: torch.Tensor) -> Any:
        if self.bfloat16:
            xs = tuple(x.to(torch.bfloat16) if x.dtype == torch.float32 else x for x in xs)
        result = self.case.fn(*xs)
        flat, _ = _pytree.tree_flatten(result)
        return tuple(t.float() if t.dtype == torch.bfloat16 else t for t in flat)


def example_inputs(case: Case, family: str) -> tuple[torch.Tensor, ...]:
    inputs = case.inputs(case.generator(family), DTYPES[family])
    # BFloat16 values stored exactly as float32; the program casts them back.
    return tuple(x.float() if x.dtype == torch.bfloat16 else x for x in inputs)


def smaller_run(case: Case, inputs: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
    """The inputs cut by one along every dynamic dim: a second run at new sizes."""
    assert case.dynamic is not None
    specs = case.dynamic(len(inputs))
    return tuple(_narrow_all(x, spec) for x, spec in zip(inputs, specs, strict=True))


def _narrow_all(x: torch.Tensor, spec: dict[int, Any] | None) -> torch.Tensor:
    for dim in sorted(spec or {}):
        x = x.narrow(dim, 0, x.shape[dim] - 1)
    return x.contiguous()


def to_numpy(t: torch.Tensor) -> np.ndarray:
    # Logical row-major order; a copy, not np.ascontiguousarray, which makes 0-dim arrays 1-dim.
    return t.detach().contiguous().numpy().copy()


def run_eager(module: Program, inputs: tuple[torch.Tensor, ...]) -> list[np.ndarray]:
    outputs = module(*[x.clone() for x in inputs])
    return [to_numpy(t) for t in outputs]


def overload_packet(name: str) -> Any:
    """`masked_fill.Scalar` -> torch.ops.aten.masked_fill.Scalar; `et_copy::_h2d_copy.default`
    -> torch.ops.et_copy._h2d_copy.default."""
    namespace, _, rest = name.rpartition("::")
    op, overload = rest.split(".")
    return getattr(getattr(getattr(torch.ops, namespace or "aten"), op), overload)


def export_case(
    case: Case, allowed: set[str] | None
) -> tuple[bytes, dict[str, Any], dict[str, np.ndarray]]:
    """The program's bytes, its index entry (without operators) and its npz arrays."""
    families = [f for f in case.families if allowed is None or YAML_NAMES[f] in allowed]
    methods: list[str] = []
    shape: dict[str, int] = {}
    skipped: dict[str, str] = {}
    arrays: dict[str, np.ndarray] = {}
    exported = {}
    for family in families:
        module = Program(case, family == "bf16").eval()
        inputs = example_inputs(case, family)
        runs = [inputs] + ([smaller_run(case, inputs)] if case.dynamic else [])
        try:
            references = [run_eager(module, run) for run in runs]
        except (RuntimeError, NotImplementedError, TypeError) as error:
            skipped[family] = "PyTorch: " + str(error).strip().splitlines()[0]
            continue
        dynamic = {"xs": case.dynamic(len(inputs))} if case.dynamic else None
        with torch.no_grad():
            exported[family] = torch.export.export(module, inputs, dynamic_shapes=dynamic)
        for r, (run, outputs) in enumerate(zip(runs, references, strict=True)):
            for i, x in enumerate(run):
                arrays[f"{family}/run{r}/in{i}"] = to_numpy(x)
            for i, y in enumerate(outputs):
                arrays[f"{family}/run{r}/out{i}"] = y
        # Every family of a case has the same inputs, outputs and runs.
        shape = {"inputs": len(inputs), "outputs": len(references[0]), "runs": len(runs)}
        methods.append(family)
    if not exported:
        raise ValueError(f"no family left to export (skipped: {skipped})")
    non_core = [overload_packet(name) for name in case.non_core]
    edge = to_edge(
        exported,
        compile_config=EdgeCompileConfig(
            preserve_ops=non_core,
            _core_aten_ops_exception_list=non_core,
            # The fused quantized operators are not in the edge opset's checks (ExecuTorch's
            # own QuantFusionPass tests turn them off the same way).
            _check_ir_validity=not case.fuse_quantized,
            _skip_dim_order=case.skip_dim_order,
        ),
    )
    if case.fuse_quantized:
        from executorch.exir.passes.quant_fusion_pass import QuantFusionPass

        edge = edge.transform([QuantFusionPass(_fix_node_meta_val=True)])
    if case.edge_transform is not None:
        edge = case.edge_transform(edge)
    buffer = edge.to_executorch().buffer
    entry: dict[str, Any] = {"methods": sorted(methods), **shape}
    if case.reference == "executorch":
        arrays.update(executorch_outputs(buffer, arrays, methods, shape["runs"]))
        entry["reference"] = "executorch"
    if skipped:
        entry["skipped"] = skipped
    if case.dynamic:
        entry["dynamic"] = True
    if case.compare != "values":
        entry["compare"] = case.compare
    return buffer, entry, arrays


def executorch_outputs(
    buffer: bytes, arrays: dict[str, np.ndarray], methods: list[str], runs: int
) -> dict[str, np.ndarray]:
    """The outputs ExecuTorch 1.5.1's own runtime computes for every method and run of the
    program (its quantized kernels are registered by `cases.py`'s import)."""
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(buffer)
    outputs: dict[str, np.ndarray] = {}
    for method_name in methods:
        method = program.load_method(method_name)
        for r in range(runs):
            prefix = f"{method_name}/run{r}/"
            count = sum(1 for key in arrays if key.startswith(prefix + "in"))
            inputs = [torch.from_numpy(arrays[f"{prefix}in{i}"].copy()) for i in range(count)]
            for i, y in enumerate(method.execute(inputs)):
                outputs[f"{prefix}out{i}"] = to_numpy(y)
    return outputs


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for key in sorted(arrays):
            data = io.BytesIO()
            np.save(data, arrays[key], allow_pickle=False)
            archive.writestr(
                zipfile.ZipInfo(f"{key}.npy", _ZIP_DATE), data.getvalue(), zipfile.ZIP_DEFLATED
            )


def update_index(name: str, entry: dict[str, Any] | None) -> None:
    """Record (or, with None, drop) one program in index.json, under a lock: shards of the
    export run side by side, and an interrupted export keeps what it finished."""
    index_path = PROGRAMS / "index.json"
    directory = os.open(PROGRAMS, os.O_RDONLY)  # the lock: no lock file left behind
    try:
        fcntl.flock(directory, fcntl.LOCK_EX)
        index = json.loads(index_path.read_text()) if index_path.exists() else {}
        programs: dict[str, Any] = index.get("programs", {})
        if entry is None:
            programs.pop(name, None)
        else:
            programs[name] = entry
        known = {case.name for case in CASES}
        programs = {n: programs[n] for n in sorted(programs) if n in known}
        operators: dict[str, list[str]] = {}
        for program, item in programs.items():
            for op in item["operators"]:
                operators.setdefault(op, []).append(program)
        index_path.write_text(index_text(programs, operators))
        for stale in PROGRAMS.iterdir():
            if stale.suffix in (".pte", ".npz") and stale.stem not in known:
                stale.unlink()
    finally:
        os.close(directory)  # releases the lock


def index_text(programs: dict[str, Any], operators: dict[str, list[str]]) -> str:
    """index.json with one line per program and per operator: small, and a re-export's
    diff shows which programs changed."""

    def section(items: dict[str, Any]) -> str:
        return ",\n".join(
            f"  {json.dumps(key)}: {json.dumps(items[key], sort_keys=True)}"
            for key in sorted(items)
        )

    return (
        f'{{\n "operators": {{\n{section(operators)}\n }},\n'
        f' "programs": {{\n{section(programs)}\n }}\n}}\n'
    )


def allowed_families(case: Case, dtypes: dict[str, set[str] | None]) -> set[str] | None:
    """The dtypes every listed kernel of the case accepts (None: no kernel lists any)."""
    allowed: set[str] | None = None
    for op in case.ops:
        listed = dtypes.get(operator_name(op))
        if listed is not None:
            allowed = listed if allowed is None else allowed & listed
    return allowed


def export_one(case: Case, dtypes: dict[str, set[str] | None]) -> str | None:
    """Export `case` and record it; None, or why it was not written."""
    wanted = [operator_name(op) for op in case.ops]
    try:
        buffer, entry, arrays = export_case(case, allowed_families(case, dtypes))
    except Exception as error:  # noqa: BLE001 - report every case, then fail
        text = str(error).strip()
        first = text.splitlines()[0] if text else repr(error)
        return f"export failed: {type(error).__name__}: {first[:300]}"
    pte = PROGRAMS / f"{case.name}.pte"
    pte.write_bytes(buffer)
    called = sorted(str(op) for op in read_model_ops(pte).operators)
    missing = [op for op in wanted if op not in called]
    if missing:
        pte.unlink()
        update_index(case.name, None)
        return f"the program does not call {missing}; it calls {called}"
    write_npz(PROGRAMS / f"{case.name}.npz", arrays)
    entry["operators"] = called
    entry["targets"] = wanted
    update_index(case.name, entry)
    print(f"{case.name}: {sorted(entry['methods'])} {called}", flush=True)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="export only these cases")
    parser.add_argument("--missing", action="store_true", help="only cases not in index.json")
    parser.add_argument("--shard", default="0/1", help="K/N: every N-th case from the K-th")
    args = parser.parse_args(argv)
    names = [c.name for c in CASES]
    if len(set(names)) != len(names):
        raise SystemExit("cases.py: duplicate case names")
    unknown = set(args.only) - set(names)
    if unknown:
        raise SystemExit(f"--only: no such case: {sorted(unknown)}")
    shard, shards = (int(part) for part in args.shard.split("/"))
    PROGRAMS.mkdir(exist_ok=True)
    index_path = PROGRAMS / "index.json"
    done = json.loads(index_path.read_text())["programs"] if index_path.exists() else {}
    selected = [
        case
        for number, case in enumerate(CASES)
        if number % shards == shard
        and (not args.only or case.name in args.only)
        and not (args.missing and case.name in done)
    ]
    dtypes = kernel_dtypes()
    failed = []
    for case in selected:
        problem = export_one(case, dtypes)
        if problem:
            failed.append(f"{case.name}: {problem}")
            print(f"FAILED {failed[-1]}", flush=True)
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
