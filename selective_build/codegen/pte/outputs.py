"""How many bytes each output of a method takes, read from the program before it runs.

Verification bounds the bytes a runner may write (tasks/verify.py): a program of a few
hundred bytes can plan an output of gigabytes (`ones` into a planned 2 GiB tensor), which
the runner would fill and write. The planned sizes are what the runner allocates: a
dynamic shape's sizes are its upper bound.
"""

from __future__ import annotations

import math
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.pte.region import read_flatbuffer_region
from selective_build.codegen.pte.slots import EValue, ExecutionPlan, KernelTypes, Program, Tensor
from selective_build.codegen.pte.table import FlatbufferError, Table, root
from selective_build.codegen.scalar_type import ScalarType


def read_output_bytes(path: Path, method: str) -> tuple[int, ...] | None:
    """The bytes of each output of `method` in the program `path` (0 for an output that is
    no tensor), or None when the program has no such method (the runner says so)."""
    try:
        data = read_flatbuffer_region(path)
        for plan in root(data).tables(Program.EXECUTION_PLAN, "execution_plan"):
            if plan.string(ExecutionPlan.NAME, "execution plan name") == method:
                outputs = plan.scalars(ExecutionPlan.OUTPUTS, "i", "outputs")
                return tuple(_value_bytes(plan, index) for index in outputs)
    except (FlatbufferError, ValueError) as error:
        raise InputError(path, f"malformed program: {error}") from None
    return None


def _value_bytes(plan: Table, index: int) -> int:
    value = plan.table_at(ExecutionPlan.VALUES, index, "values")
    tag, tensor = value.union(EValue.VAL_TYPE, ("values", index))
    if tag != KernelTypes.TENSOR or tensor is None:
        return 0
    sizes = tensor.scalars(Tensor.SIZES, "i", "tensor sizes")
    if any(size < 0 for size in sizes):
        raise ValueError(f"output value {index} has a negative size")
    dtype = ScalarType.from_number(tensor.u8(Tensor.SCALAR_TYPE))
    return dtype.size * math.prod(sizes)
