"""The latency benchmark's models lowered to ExecuTorch's XNNPACK delegate, for its
"ExecuTorch + XNNPACK" column (an `executorch` target with the XNNPACK backend).

Runs in the dev-only environment with torch + executorch. Each model is rebuilt from its
seeds (latency_models.eager: the same weights and inputs as the program the other columns
run), exported at the shape of its saved inputs, lowered with `to_edge_transform_and_lower`
and the XNNPACK partitioner (operators XNNPACK does not take stay kernel calls), and written
to the git-ignored ``benchmarks/models/xnnpack/<name>/<name>.pte``; one already there is
kept (``--force`` re-exports). The inputs and references stay the original model's. A model
that cannot be rebuilt or lowered here (the ResNet and MobileNetV2 need torchvision) is
named in one line and left out: its column says so.

Usage::

    /work/et-venv/bin/python benchmarks/latency_xnnpack.py export [--force] [NAME ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOWERED = REPO / "benchmarks" / "models" / "xnnpack"


def lowered_program(name: str) -> Path:
    """Where the XNNPACK-lowered program of benchmark model `name` is written."""
    return LOWERED / name / f"{name}.pte"


def export(force: bool, names: list[str]) -> None:
    import latency_models
    import torch
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    torch.set_num_threads(1)
    for name in names:
        path = lowered_program(name)
        if path.is_file() and not force:
            continue
        try:
            module, inputs = latency_models.eager(name)
            exported = torch.export.export(module, inputs)
            program = to_edge_transform_and_lower(
                exported, partitioner=[XnnpackPartitioner()]
            ).to_executorch()
        except Exception as error:  # noqa: BLE001  one model's failure is its column's
            # The column then says the model was not lowered (latency.py, program_for).
            print(f"{name}: not lowered: {type(error).__name__}: {error}".splitlines()[0])
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(program.buffer))
        delegates = sum(len(plan.delegates) for plan in program.executorch_program.execution_plan)
        print(f"{name}: {path.stat().st_size:,} bytes, {delegates} XNNPACK delegate(s)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("command", choices=["export"])
    parser.add_argument("--force", action="store_true")
    parser.add_argument("names", nargs="+", metavar="NAME")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    export(args.force, args.names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
