"""Development script: write the schemas of ExecuTorch 1.5.1's operators, one per line.

Needs torch and ExecuTorch installed (`/work/et-venv/bin/python tools/executorch_schemas.py
OUT`); the project never runs it. The list covers every operator of ExecuTorch's portable
`functions.yaml`, its `quantized.yaml` and the `executorch_prim` operators its Python
registry defines, as torch prints them (`str(op._schema)`), sorted. The tests compare our
libraries' `func:` entries with it, and parse every line of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import executorch
import executorch.exir.passes.dim_order_ops_registry  # noqa: F401  (registers dim_order_ops)
import executorch.exir.passes.executorch_prim_ops_registry  # noqa: F401  (executorch_prim)
import torch
import yaml


def yaml_schemas(path: Path) -> list[str]:
    """Schemas of a functions.yaml: `func:` as written, `op:` looked up in torch."""
    schemas = []
    for entry in yaml.safe_load(path.read_text()):
        if "func" in entry:
            text = entry["func"]
            schemas.append(text if "::" in text.split("(")[0] else f"aten::{text}")
        else:
            name, _, overload = entry["op"].partition(".")
            schemas.append(
                str(getattr(getattr(torch.ops.aten, name), overload or "default")._schema)
            )
    return schemas


def prim_schemas() -> list[str]:
    # The ATen operators ExecuTorch's runtime registers among its prim ops.
    schemas = [
        str(torch.ops.aten.sym_size.int._schema),
        str(torch.ops.aten.sym_numel.default._schema),
    ]
    schemas.append(str(torch.ops.aten._local_scalar_dense.default._schema))
    namespace = torch.ops.executorch_prim
    for name in dir(namespace):
        packet = getattr(namespace, name)
        if isinstance(packet, torch._ops.OpOverloadPacket):
            schemas.extend(
                str(getattr(packet, overload)._schema) for overload in packet.overloads()
            )
    return schemas


def main() -> None:
    root = Path(next(iter(executorch.__path__))) / "kernels"
    schemas = yaml_schemas(root / "portable" / "functions.yaml")
    schemas += yaml_schemas(root / "quantized" / "quantized.yaml")
    schemas += prim_schemas()
    Path(sys.argv[1]).write_text("".join(f"{s}\n" for s in sorted(set(schemas))))


if __name__ == "__main__":
    main()
