"""Reading what a model needs from an ExecuTorch `.pte` file.

Only the flatbuffer region is read (the extended header says where it ends), so the cost
does not grow with the weights stored in the segments behind it. Every offset is checked
(`codegen.flatbuffer`); every fault becomes an `InputError` naming the file.
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from codegen.errors import InputError
from codegen.flatbuffer import (
    Array,
    Buffer,
    FlatbufferError,
    Readable,
    Table,
    Tables,
    distinct,
    distinct_rows,
    distinct_rows_inverse,
    root,
)
from codegen.model import KernelKey, OperatorName, TensorMeta
from codegen.paths import require_regular_file
from codegen.pte_slots import (
    PAYLOAD,
    BackendDelegate,
    Chain,
    EValue,
    ExecutionPlan,
    Instruction,
    InstructionArguments,
    KernelCall,
    KernelTypes,
    Operator,
    Program,
    Tensor,
)
from codegen.scalar_type import ScalarType

FILE_IDENTIFIER = b"ET12"
EXTENDED_HEADER_MAGIC = b"eh00"
# Bytes needed to see the identifier and the whole extended header.
_HEAD_BYTES = 40
# Flatbuffers up to this size are read; larger ones are memory-mapped.
_READ_LIMIT = 1 << 20
# Instructions read at once: large enough that numpy's per-call cost vanishes, small enough
# that the arrays of a slice stay a few megabytes.
_SLICE = 1 << 16
# A value not decoded yet (decoded: a meta number, or -1 for no tensor).
_UNDECODED = -2
# Work charged per distinct execution plan (see `Buffer`): its fixed cost in numpy calls.
_PLAN_WORK = 1024


@dataclass(frozen=True)
class ModelOps:
    """What one model needs: its operators with their kernel keys, and its backends."""

    methods: tuple[str, ...]
    operators: dict[OperatorName, frozenset[KernelKey]]
    delegates: tuple[str, ...]


def read_flatbuffer_region(path: Path) -> Readable:
    """The bytes of the flatbuffer (headers included), without the segment data.

    A large file is memory-mapped rather than read: without an extended header nothing
    says where the flatbuffer ends, and its offsets bound what is read, so only the pages
    they reach are ever loaded (a multi-gigabyte file costs what its flatbuffer costs).
    """
    require_regular_file(path)
    try:
        with path.open("rb") as file:
            file_size = os.fstat(file.fileno()).st_size
            head = file.read(_HEAD_BYTES)
            if len(head) < 8:
                raise InputError(path, f"not a .pte file: only {len(head)} bytes")
            identifier = head[4:8]
            if identifier != FILE_IDENTIFIER:
                if identifier[:2] == b"ET" and identifier[2:].isdigit():
                    raise InputError(
                        path, f"unsupported .pte version {identifier.decode()} (expected ET12)"
                    )
                raise InputError(path, f"not a .pte file: identifier {identifier!r} is not 'ET12'")
            region = file_size
            if head[8:12] == EXTENDED_HEADER_MAGIC:
                if len(head) < _HEAD_BYTES:
                    raise InputError(path, "truncated: the extended header is incomplete")
                header_length = struct.unpack_from("<I", head, 12)[0]
                region = struct.unpack_from("<Q", head, 16)[0]
                if header_length < 24 or region < _HEAD_BYTES:
                    raise InputError(path, "malformed extended header (length or program size)")
                if region > file_size:
                    raise InputError(
                        path,
                        f"truncated: header says the program is {region} bytes, "
                        f"the file has {file_size}",
                    )
            if region <= _READ_LIMIT:
                file.seek(0)
                return file.read(region)
            mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            return memoryview(mapping)[:region]
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror or error}") from None


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
    metas = _Metas()
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
    metas: _Metas,
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
    values = _Values(buffer, this, metas)
    # In slices of instructions: memory stays at a slice's arrays whatever the program's size.
    for begin in range(0, len(instructions), _SLICE):
        part = instructions.select(slice(begin, begin + _SLICE))
        _calls_keys(part, buffer, values, metas, names, operators)


def _calls_keys(
    instructions: Tables,
    buffer: Buffer,
    values: _Values,
    metas: _Metas,
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


class _Metas:
    """Every distinct tensor meta of a program, numbered in order of first sight."""

    def __init__(self) -> None:
        self._metas: list[TensorMeta] = []
        self._ids: dict[TensorMeta, int] = {}

    def id(self, meta: TensorMeta) -> int:
        number = self._ids.get(meta)
        if number is None:
            number = self._ids[meta] = len(self._metas)
            self._metas.append(meta)
        return number

    def meta(self, number: int) -> TensorMeta:
        return self._metas[number]


class _Values:
    """The plan's values, decoded only when a kernel call refers to them (Note [Kernel key]).

    A tensor contributes its meta; a tensor list its first present tensor's (lists never
    nest in a program); anything else nothing (-1).
    """

    def __init__(self, buffer: Buffer, plan: Tables, metas: _Metas) -> None:
        self._buffer = buffer
        self._metas = metas
        starts, lengths = plan.vectors(ExecutionPlan.VALUES, 4)
        self._start, self.count = int(starts[0]), int(lengths[0])
        self._numbers: NDArray[np.int32] | None = None

    def meta_ids(self, indices: Array) -> Array:
        """The meta number of each value index (-1: no tensor)."""
        self._check(indices)
        # Indexed by value (at most four bytes per value of a vector that fits in the
        # flatbuffer): each value is decoded once, the first time a call uses it.
        if self._numbers is None:
            self._numbers = np.full(self.count, _UNDECODED, np.int32)
        numbers = self._numbers
        wanted = distinct(indices)
        wanted = wanted[numbers[wanted] == _UNDECODED]
        numbers[wanted] = self._decode(wanted, lists=True)
        result: Array = numbers[indices].astype(np.int64)
        return result

    def _check(self, indices: Array) -> None:
        if len(indices) and (int(indices.min()) < 0 or int(indices.max()) >= self.count):
            bad = (indices < 0) | (indices >= self.count)
            raise ValueError(
                f"value index {int(indices[int(bad.argmax())])} is outside the {self.count} values"
            )

    def _decode(self, wanted: Array, lists: bool) -> Array:
        self._check(wanted)
        buffer = self._buffer
        entries = self._start + 4 * wanted
        values = Tables(buffer, entries + buffer.unsigned(entries, 4, "values", "offset"), "value")
        tags = values.scalar(EValue.VAL_TYPE, 1)
        targets = np.where(tags != 0, values.indirect(EValue.VAL), -1)
        ids = np.full(len(wanted), -1, np.int64)
        tensors = (tags == KernelTypes.TENSOR) & (targets >= 0)
        ids[tensors] = self._tensor_ids(Tables(buffer, targets[tensors], "tensor"))
        kinds = (KernelTypes.TENSOR_LIST, KernelTypes.OPTIONAL_TENSOR_LIST)
        chosen = np.isin(tags, kinds) & (targets >= 0)
        if lists and chosen.any():
            ids[chosen] = self._list_ids(Tables(buffer, targets[chosen], "tensor list"))
        return ids

    def _list_ids(self, lists: Tables) -> Array:
        """Each list's first present tensor's meta number."""
        starts, lengths = lists.vectors(PAYLOAD, 4)
        items = self._buffer.signed32(
            self._buffer.elements(starts, lengths, 4, "tensor list items"), "", ""
        )
        present = distinct(items[items >= 0])
        item_ids = self._decode(present, lists=False)
        ids = np.full(len(lengths), -1, np.int64)
        first = (np.cumsum(lengths) - lengths).tolist()
        for index, (begin, count) in enumerate(zip(first, lengths.tolist(), strict=True)):
            for item in items[begin : begin + count].tolist():
                if item >= 0:
                    number = int(item_ids[np.searchsorted(present, item)])
                    if number >= 0:
                        ids[index] = number
                        break
        return ids

    def _tensor_ids(self, tensors: Tables) -> Array:
        """Meta numbers of tensors: dtype and dim order, grouped by rank."""
        dtypes = tensors.scalar(Tensor.SCALAR_TYPE, 1)
        starts, ranks = tensors.vectors(Tensor.DIM_ORDER, 1)
        self._buffer.charge(int(ranks.sum()), "dim orders")
        ids = np.empty(len(tensors), np.int64)
        for rank in distinct(ranks).tolist():
            group = ranks == rank
            columns = starts[group][:, None] + np.arange(rank)
            matrix = np.column_stack([dtypes[group], self._buffer.bytes[columns]])
            rows, inverse = distinct_rows_inverse(matrix)
            numbers = [
                self._metas.id(TensorMeta(ScalarType.from_number(row[0]), tuple(row[1:])))
                for row in rows.tolist()
            ]
            ids[group] = np.array(numbers, np.int64)[inverse]
        return ids
