"""Development script: export the program tests/kernels/test_call_layout.py runs.

Needs torch and ExecuTorch 1.5.1 (`/work/et-venv/bin/python tools/export_call_layout.py`);
the project never runs it. The program calls, through the real exporter, the three layouts
of a kernel call's return value (Note [Kernel call layout] in codegen/unboxing.py): an out
variant returning one tensor (`add.out`: the out value twice), one returning two
(`max.dim_max`: a TensorList of both), and one writing a Tensor list and returning nothing
(`split_with_sizes_copy.out`: the list again). It prints every call's argument kinds.
"""

from __future__ import annotations

from pathlib import Path

import torch
from executorch.exir import to_edge
from executorch.exir.schema import KernelCall

OUT = Path(__file__).parents[1] / "tests" / "kernels" / "data" / "split_max.pte"


class SplitMax(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        a, b = torch.split(x, [2, 2], dim=1)
        values, indices = torch.max(x, dim=1)
        return a + b, values, indices


def main() -> None:
    exported = torch.export.export(SplitMax(), (torch.randn(3, 4),))
    program = to_edge(exported).to_executorch()
    OUT.write_bytes(program.buffer)
    plan = program.executorch_program.execution_plan[0]
    for instruction in plan.chains[0].instructions:
        call = instruction.instr_args
        if isinstance(call, KernelCall):
            op = plan.operators[call.op_index]
            kinds = [(i, type(plan.values[i].val).__name__) for i in call.args]
            print(f"{op.name}.{op.overload}: {kinds}")


if __name__ == "__main__":
    main()
