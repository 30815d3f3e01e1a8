"""Reading what a model needs from an ExecuTorch `.pte` file: the entry point for reading.

`read_model_ops` is what `gen_oplist`, `model_ops` and `verify` call. Only the flatbuffer
region is read (`codegen.pte.region`); every offset is checked (`codegen.pte.table`, and
for the kernel calls `codegen.pte.native` or its fallback `codegen.pte.batch`); every
fault becomes an `InputError` naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import native
from selective_build.codegen.pte.native import CallKey
from selective_build.codegen.pte.region import read_flatbuffer_region
from selective_build.codegen.pte.slots import BackendDelegate, ExecutionPlan, Operator, Program
from selective_build.codegen.pte.table import FlatbufferError, Readable, Table, root
from selective_build.codegen.pte.work import Work

# Work charged per distinct execution plan (see `Work`): its fixed cost.
_PLAN_WORK = 1024


@dataclass(frozen=True)
class ModelOps:
    """What one model needs: its operators with their kernel keys, and its backends."""

    methods: tuple[str, ...]
    operators: dict[OperatorName, frozenset[KernelKey]]
    delegates: tuple[str, ...]
    # Per method, in the order of `methods`: how many inputs it takes and outputs it gives
    # (what a runner's --input files and written outputs must number).
    arities: tuple[tuple[int, int], ...] = ()


def read_model_ops(path: Path) -> ModelOps:
    """Operators, kernel keys and delegate backends of every execution plan of `path`."""
    try:
        data = read_flatbuffer_region(path)
        return _program_ops(data, Work(len(data)))
    except (FlatbufferError, ValueError) as error:
        raise InputError(path, f"malformed program: {error}") from None
    except MemoryError:
        raise InputError(path, "too large to read in the memory available") from None


def _program_ops(data: Readable, work: Work) -> ModelOps:
    methods: list[str] = []
    arities: list[tuple[int, int]] = []
    operators: dict[OperatorName, set[KernelKey]] = {}
    delegates: set[str] = set()
    seen: set[int] = set()
    for plan in root(data).tables(Program.EXECUTION_PLAN, "execution_plan"):
        methods.append(plan.string(ExecutionPlan.NAME, "execution plan name") or "")
        arities.append(
            (
                plan.length(ExecutionPlan.INPUTS, "method inputs"),
                plan.length(ExecutionPlan.OUTPUTS, "method outputs"),
            )
        )
        if plan.position not in seen:  # a plan listed twice is read once
            seen.add(plan.position)
            work.charge(_PLAN_WORK, "execution plans")
            _plan_ops(plan, data, work, operators, delegates)
    return ModelOps(
        methods=tuple(methods),
        operators={op: frozenset(keys) for op, keys in sorted(operators.items())},
        delegates=tuple(sorted(delegates)),
        arities=tuple(arities),
    )


def _plan_ops(
    plan: Table,
    data: Readable,
    work: Work,
    operators: dict[OperatorName, set[KernelKey]],
    delegates: set[str],
) -> None:
    # Operators and delegates are read one by one: their count is work too (plans sharing
    # one long operator vector would otherwise read it once per plan).
    counted = ((ExecutionPlan.OPERATORS, "operators"), (ExecutionPlan.DELEGATES, "delegates"))
    for slot, what in counted:
        work.charge(plan.length(slot, what), what)
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
    for index, metas in plan_kernel_keys(data, plan.position, len(names), work):
        operators[names[index]].add(KernelKey(metas))


def plan_kernel_keys(data: Readable, plan: int, operators: int, work: Work) -> set[CallKey]:
    """The distinct keys of a plan's kernel calls: read in C, or with numpy where the C
    reader was not built (imported only then: numpy alone costs more than the C reader
    spends on 300,000 calls)."""
    if native.MODULE is not None:
        return native.plan_kernel_keys(native.MODULE, data, plan, operators, work)
    from selective_build.codegen.pte import batch

    return batch.plan_kernel_keys(data, plan, operators, work)
