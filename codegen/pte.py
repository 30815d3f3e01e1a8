"""Reading what a model needs from an ExecuTorch `.pte` file.

Only the flatbuffer region is read (the extended header says where it ends), so the cost
does not grow with the weights stored in the segments behind it. Every offset is checked
(`codegen.flatbuffer`); every fault becomes an `InputError` naming the file.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from codegen.errors import InputError
from codegen.flatbuffer import FlatbufferError, Table, root
from codegen.model import KernelKey, OperatorName, TensorMeta
from codegen.scalar_type import ScalarType

FILE_IDENTIFIER = b"ET12"
EXTENDED_HEADER_MAGIC = b"eh00"
# Bytes needed to see the identifier and the whole extended header.
_HEAD_BYTES = 40

# Union tags and vtable slots from ExecuTorch's schema/program.fbs (slot n <-> field n,
# a union field taking two slots: its hidden type tag, then its value).
_EVALUE_TENSOR = 5
_EVALUE_TENSOR_LIST = 10
_EVALUE_OPTIONAL_TENSOR_LIST = 11
_INSTRUCTION_KERNEL_CALL = 1
_INSTRUCTION_DELEGATE_CALL = 2

_PROGRAM_EXECUTION_PLAN = 1
_PLAN_NAME, _PLAN_VALUES, _PLAN_CHAINS, _PLAN_OPERATORS, _PLAN_DELEGATES = 0, 2, 5, 6, 7
_CHAIN_INSTRUCTIONS = 2
_INSTRUCTION_ARGS = 0
_KERNEL_CALL_OP_INDEX, _KERNEL_CALL_ARGS = 0, 1
_OPERATOR_NAME, _OPERATOR_OVERLOAD = 0, 1
_EVALUE_VAL = 0
_TENSOR_SCALAR_TYPE, _TENSOR_DIM_ORDER = 0, 3
_LIST_ITEMS = 0
_DELEGATE_ID = 0


@dataclass(frozen=True)
class ModelOps:
    """What one model needs: its operators with their kernel keys, and its backends."""

    methods: tuple[str, ...]
    operators: dict[OperatorName, frozenset[KernelKey]]
    delegates: tuple[str, ...]


def read_flatbuffer_region(path: Path) -> bytes:
    """The bytes of the flatbuffer (headers included), without the segment data."""
    try:
        with path.open("rb") as file:
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
            if head[8:12] != EXTENDED_HEADER_MAGIC:
                return head + file.read()
            if len(head) < _HEAD_BYTES:
                raise InputError(path, "truncated: the extended header is incomplete")
            header_length = struct.unpack_from("<I", head, 12)[0]
            program_size = struct.unpack_from("<Q", head, 16)[0]
            if header_length < 24 or program_size < _HEAD_BYTES:
                raise InputError(path, "malformed extended header (length or program size)")
            file.seek(0, 2)
            file_size = file.tell()
            if program_size > file_size:
                raise InputError(
                    path,
                    f"truncated: header says the program is {program_size} bytes, "
                    f"the file has {file_size}",
                )
            file.seek(0)
            return file.read(program_size)
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None


def read_model_ops(path: Path) -> ModelOps:
    """Operators, kernel keys and delegate backends of every execution plan of `path`."""
    data = read_flatbuffer_region(path)
    try:
        return _program_ops(root(data))
    except (FlatbufferError, ValueError) as error:
        raise InputError(path, f"malformed program: {error}") from None


def _program_ops(program: Table) -> ModelOps:
    methods: list[str] = []
    operators: dict[OperatorName, set[KernelKey]] = {}
    delegates: set[str] = set()
    for plan in program.tables(_PROGRAM_EXECUTION_PLAN, "execution_plan"):
        methods.append(plan.string(_PLAN_NAME, "execution plan name") or "")
        _plan_ops(plan, operators, delegates)
    return ModelOps(
        methods=tuple(methods),
        operators={op: frozenset(keys) for op, keys in sorted(operators.items())},
        delegates=tuple(sorted(delegates)),
    )


def _plan_ops(
    plan: Table, operators: dict[OperatorName, set[KernelKey]], delegates: set[str]
) -> None:
    names = [
        OperatorName.from_parts(
            op.string(_OPERATOR_NAME, "operator name") or "",
            op.string(_OPERATOR_OVERLOAD, "operator overload") or "",
        )
        for op in plan.tables(_PLAN_OPERATORS, "operators")
    ]
    for name in names:
        operators.setdefault(name, set())
    for delegate in plan.tables(_PLAN_DELEGATES, "delegates"):
        delegates.add(delegate.string(_DELEGATE_ID, "delegate id") or "")
    values = _Values(list(plan.tables(_PLAN_VALUES, "values")))
    seen: set[tuple[int, tuple[int, ...]]] = set()
    for chain in plan.tables(_PLAN_CHAINS, "chains"):
        for instruction in chain.tables(_CHAIN_INSTRUCTIONS, "instructions"):
            tag, call = instruction.union(_INSTRUCTION_ARGS, "instruction arguments")
            if tag != _INSTRUCTION_KERNEL_CALL or call is None:
                continue
            op_index = call.i32(_KERNEL_CALL_OP_INDEX)
            if not 0 <= op_index < len(names):
                raise ValueError(
                    f"kernel call names operator {op_index}, the plan has {len(names)}"
                )
            args = call.scalars(_KERNEL_CALL_ARGS, "i", "kernel call args")
            if (op_index, args) not in seen:  # repeated calls: hash ints, not keys
                seen.add((op_index, args))
                operators[names[op_index]].add(values.kernel_key(args))


class _Values:
    """The plan's values, decoded only when a kernel call refers to them."""

    def __init__(self, tables: list[Table]) -> None:
        self._tables = tables
        self._metas: dict[int, TensorMeta | None] = {}
        # Large programs repeat argument lists (layers of one shape): decode each once.
        self._keys: dict[tuple[int, ...], KernelKey] = {}

    def kernel_key(self, args: tuple[int, ...]) -> KernelKey:
        """The key of a call with these argument indices (Note [Kernel key])."""
        key = self._keys.get(args)
        if key is None:
            metas = (self._meta(index) for index in args)
            key = self._keys[args] = KernelKey(tuple(m for m in metas if m is not None))
        return key

    def _meta(self, index: int) -> TensorMeta | None:
        if index not in self._metas:
            self._metas[index] = self._decode_meta(index, depth=0)
        return self._metas[index]

    def _decode_meta(self, index: int, depth: int) -> TensorMeta | None:
        if not 0 <= index < len(self._tables):
            raise ValueError(f"value index {index} is outside the {len(self._tables)} values")
        tag, value = self._tables[index].union(_EVALUE_VAL, ("value", index))
        if value is None:
            return None
        if tag == _EVALUE_TENSOR:
            dtype = ScalarType.from_number(value.u8(_TENSOR_SCALAR_TYPE))
            dim_order = value.scalars(_TENSOR_DIM_ORDER, "B", ("dim_order of value", index))
            return TensorMeta(dtype, tuple(dim_order))
        if tag in (_EVALUE_TENSOR_LIST, _EVALUE_OPTIONAL_TENSOR_LIST) and depth == 0:
            # A list is keyed by its first present tensor; lists never nest in a program.
            for item in value.scalars(_LIST_ITEMS, "i", ("items of value", index)):
                if item >= 0:
                    meta = self._decode_meta(item, depth=1)
                    if meta is not None:
                        return meta
        return None
