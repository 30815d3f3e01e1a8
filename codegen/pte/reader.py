"""Reading what a model needs from an ExecuTorch `.pte` file: the entry point for reading.

`read_model_ops` is what `gen_oplist`, `model_ops` and `verify` call. Only the flatbuffer
region is read (`codegen.pte.region`); every offset is checked (`codegen.pte.table`,
`codegen.pte.tables`); every fault becomes an `InputError` naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from codegen.errors import InputError
from codegen.model import KernelKey, OperatorName
from codegen.pte.distinct import distinct, distinct_rows
from codegen.pte.region import read_flatbuffer_region
from codegen.pte.slots import (
    BackendDelegate,
    Chain,
    ExecutionPlan,
    Instruction,
    InstructionArguments,
    KernelCall,
    Operator,
    Program,
)
from codegen.pte.table import Array, FlatbufferError, Table, root
from codegen.pte.tables import Buffer, Tables
from codegen.pte.values import Metas, Values

# Instructions read at once: large enough that numpy's per-call cost vanishes, small enough
# that the arrays of a slice stay a few megabytes.
_SLICE = 1 << 16
# Work charged per distinct execution plan (see `Buffer`): its fixed cost in numpy calls.
_PLAN_WORK = 1024


@dataclass(frozen=True)
class ModelOps:
    """What one model needs: its operators with their kernel keys, and its backends."""

    methods: tuple[str, ...]
    operators: dict[OperatorName, frozenset[KernelKey]]
    delegates: tuple[str, ...]


def read_model_ops(path: Path) -> ModelOps:
    """Operators, kernel keys and delegate backends of every execution plan of `path`."""
    try:
        data = read_flatbuffer_region(path)
        return _program_ops(root(data), Buffer(data))
    except (FlatbufferError, ValueError) as error:
        raise InputError(path, f"malformed program: {error}") from None
    except MemoryError:
        raise InputError(path, "too large to read in the memory available") from None


def _program_ops(program: Table, buffer: Buffer) -> ModelOps:
    methods: list[str] = []
    operators: dict[OperatorName, set[KernelKey]] = {}
    delegates: set[str] = set()
    metas = Metas()
    seen: set[int] = set()
    for plan in program.tables(Program.EXECUTION_PLAN, "execution_plan"):
        methods.append(plan.string(ExecutionPlan.NAME, "execution plan name") or "")
        if plan.position not in seen:  # a plan listed twice is read once
            seen.add(plan.position)
            buffer.charge(_PLAN_WORK, "execution plans")
            _plan_ops(plan, buffer, metas, operators, delegates)
    return ModelOps(
        methods=tuple(methods),
        operators={op: frozenset(keys) for op, keys in sorted(operators.items())},
        delegates=tuple(sorted(delegates)),
    )


def _plan_ops(
    plan: Table,
    buffer: Buffer,
    metas: Metas,
    operators: dict[OperatorName, set[KernelKey]],
    delegates: set[str],
) -> None:
    this = Tables(buffer, np.array([plan.position], np.int64), "execution plan")
    # Operators and delegates are read one by one: their count is work too (plans sharing
    # one long operator vector would otherwise read it once per plan).
    counted = ((ExecutionPlan.OPERATORS, "operators"), (ExecutionPlan.DELEGATES, "delegates"))
    for slot, what in counted:
        buffer.charge(int(this.vectors(slot, 4)[1][0]), what)
    names = [
        OperatorName.from_parts(
            op.string(Operator.NAME, "operator name") or "",
            op.string(Operator.OVERLOAD, "operator overload") or "",
        )
        for op in plan.tables(ExecutionPlan.OPERATORS, "operators")
    ]
    for name in names:
        operators.setdefault(name, set())
    for delegate in plan.tables(ExecutionPlan.DELEGATES, "delegates"):
        delegates.add(delegate.string(BackendDelegate.ID, "delegate id") or "")
    # Every table below is visited once however many vectors point at it.
    chains = buffer.tables(*this.vectors(ExecutionPlan.CHAINS, 4), "chains")
    starts, lengths = chains.vectors(Chain.INSTRUCTIONS, 4)
    # Chains sharing one instruction vector: keep it once (equal starts, equal lengths).
    shared = distinct_rows(np.column_stack([starts, lengths]))
    instructions = buffer.tables(shared[:, 0], shared[:, 1], "instructions")
    values = Values(buffer, this, metas)
    # In slices of instructions: memory stays at a slice's arrays whatever the program's size.
    for begin in range(0, len(instructions), _SLICE):
        part = instructions.select(slice(begin, begin + _SLICE))
        _calls_keys(part, buffer, values, metas, names, operators)


def _calls_keys(
    instructions: Tables,
    buffer: Buffer,
    values: Values,
    metas: Metas,
    names: list[OperatorName],
    operators: dict[OperatorName, set[KernelKey]],
) -> None:
    """Add the kernel key of every kernel call among `instructions` to `operators`."""
    kernel_calls = instructions.select(
        instructions.scalar(Instruction.ARGS_TYPE, 1) == InstructionArguments.KERNEL_CALL
    )
    targets = kernel_calls.indirect(Instruction.ARGS)
    calls = Tables(buffer, distinct(targets[targets >= 0]), "kernel call")
    op_index = calls.scalar(KernelCall.OP_INDEX, 4, signed=True)
    bad = (op_index < 0) | (op_index >= len(names))
    if bad.any():
        raise ValueError(
            f"kernel call names operator {int(op_index[int(bad.argmax())])}, "
            f"the plan has {len(names)}"
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
    owner_first = np.cumsum(arg_counts) - arg_counts
    for count in distinct(arg_counts).tolist():
        group = arg_counts == count
        columns = owner_first[group][:, None] + np.arange(count)
        rows = distinct_rows(np.column_stack([op_index[group], ids[columns]]))
        for row in rows.tolist():
            key = KernelKey(tuple(metas.meta(i) for i in row[1:] if i >= 0))
            operators[names[row[0]]].add(key)


def _strictly_monotonic(values: Array) -> bool:
    """Whether `values` strictly increase or strictly decrease (so they are distinct)."""
    steps = np.diff(values)
    return bool(len(values) < 2 or (steps > 0).all() or (steps < 0).all())
