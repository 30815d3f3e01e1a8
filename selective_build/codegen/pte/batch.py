"""The kernel keys of an execution plan, read in batches with numpy: the fallback reader.

Used where the C reader (`codegen.pte.native`) was not built; it gives the same keys
(tests/codegen/test_pte_readers.py holds the two together). Every table is read once
however many vectors point at it, in slices of instructions so that memory stays at a
slice's arrays whatever the program's size.
"""

from __future__ import annotations

import numpy as np

from selective_build.codegen.pte.distinct import Array, distinct, distinct_rows
from selective_build.codegen.pte.native import CallKey
from selective_build.codegen.pte.slots import (
    Chain,
    ExecutionPlan,
    Instruction,
    InstructionArguments,
    KernelCall,
)
from selective_build.codegen.pte.table import Readable
from selective_build.codegen.pte.tables import Buffer, Tables
from selective_build.codegen.pte.values import Metas, Values
from selective_build.codegen.pte.work import Work

# Instructions read at once: large enough that numpy's per-call cost vanishes, small enough
# that the arrays of a slice stay a few megabytes.
SLICE = 1 << 16


def plan_kernel_keys(data: Readable, plan: int, operators: int, work: Work) -> set[CallKey]:
    """The distinct keys of the kernel calls of the plan table at byte `plan`, whose
    operators vector holds `operators` entries."""
    buffer = Buffer(data, work)
    this = Tables(buffer, np.array([plan], np.int64), "execution plan")
    chains = buffer.tables(*this.vectors(ExecutionPlan.CHAINS, 4), "chains")
    starts, lengths = chains.vectors(Chain.INSTRUCTIONS, 4)
    # Chains sharing one instruction vector: keep it once (equal starts, equal lengths).
    shared = distinct_rows(np.column_stack([starts, lengths]))
    instructions = buffer.tables(shared[:, 0], shared[:, 1], "instructions")
    metas = Metas()
    values = Values(buffer, this, metas)
    keys: set[CallKey] = set()
    for begin in range(0, len(instructions), SLICE):
        part = instructions.select(slice(begin, begin + SLICE))
        keys |= _calls_keys(part, buffer, values, metas, operators)
    return keys


def _calls_keys(
    instructions: Tables, buffer: Buffer, values: Values, metas: Metas, operators: int
) -> set[CallKey]:
    """The key of every kernel call among `instructions`."""
    kernel_calls = instructions.select(
        instructions.scalar(Instruction.ARGS_TYPE, 1) == InstructionArguments.KERNEL_CALL
    )
    targets = kernel_calls.indirect(Instruction.ARGS)
    calls = Tables(buffer, distinct(targets[targets >= 0]), "kernel call")
    op_index = calls.scalar(KernelCall.OP_INDEX, 4, signed=True)
    bad = (op_index < 0) | (op_index >= operators)
    if bad.any():
        raise ValueError(
            f"kernel call names operator {int(op_index[int(bad.argmax())])}, "
            f"the plan has {operators}"
        )
    args, arg_counts = calls.vectors(KernelCall.ARGS, 4)
    # Calls of one operator sharing an argument vector are one call.
    if not _strictly_monotonic(args):  # else every call has its own vector (an exporter's)
        pairs = distinct_rows(np.column_stack([op_index, args, arg_counts]))
        op_index, args, arg_counts = pairs[:, 0], pairs[:, 1], pairs[:, 2]
    indices = buffer.signed32(buffer.elements(args, arg_counts, 4, "kernel call args"), "", "")
    ids = values.meta_ids(indices)
    # A key per call: its operator and its arguments' metas, grouped by argument count so
    # that each group is one matrix whose distinct rows are the distinct keys.
    keys: set[CallKey] = set()
    owner_first = np.cumsum(arg_counts) - arg_counts
    for count in distinct(arg_counts).tolist():
        group = arg_counts == count
        columns = owner_first[group][:, None] + np.arange(count)
        for row in distinct_rows(np.column_stack([op_index[group], ids[columns]])).tolist():
            keys.add((row[0], tuple(metas.meta(i) for i in row[1:] if i >= 0)))
    return keys


def _strictly_monotonic(values: Array) -> bool:
    """Whether `values` strictly increase or strictly decrease (so they are distinct)."""
    steps = np.diff(values)
    return bool(len(values) < 2 or (steps > 0).all() or (steps < 0).all())
