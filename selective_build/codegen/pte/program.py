"""A `.pte` program as plain data, for the writer (`codegen.pte.writer`) to serialise.

Methods hold values and instructions in the shapes of `schema/program.fbs`; the union tag
each value or instruction kind is stored under comes from `codegen.pte.slots`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte import slots
from selective_build.codegen.scalar_type import ScalarType


@dataclass(frozen=True)
class Tensor:
    """A tensor value: constant when `constant` holds its bytes, else memory-planned."""

    dtype: ScalarType
    sizes: tuple[int, ...]
    dim_order: tuple[int, ...] | None = None  # None: contiguous (0, 1, ..., n-1)
    constant: bytes | None = None
    dynamic: bool = False  # sizes are an upper bound (DYNAMIC_BOUND)

    @property
    def nbytes(self) -> int:
        return self.dtype.size * math.prod(self.sizes)


@dataclass(frozen=True)
class IntList:
    items: tuple[int, ...]


@dataclass(frozen=True)
class DoubleList:
    items: tuple[float, ...]


@dataclass(frozen=True)
class BoolList:
    items: tuple[bool, ...]


@dataclass(frozen=True)
class TensorList:
    items: tuple[int, ...]  # value indices


@dataclass(frozen=True)
class OptionalTensorList:
    items: tuple[int, ...]  # value indices, -1 for None


Value = (
    Tensor
    | int
    | float
    | bool
    | str
    | None
    | IntList
    | DoubleList
    | BoolList
    | TensorList
    | OptionalTensorList
)


@dataclass(frozen=True)
class KernelCall:
    op: OperatorName
    args: tuple[int, ...]


@dataclass(frozen=True)
class DelegateCall:
    delegate: int  # index into Method.delegates
    args: tuple[int, ...]


@dataclass(frozen=True)
class MoveCall:
    source: int
    destination: int


@dataclass(frozen=True)
class JumpFalseCall:
    condition: int
    destination: int


@dataclass(frozen=True)
class FreeCall:
    value: int


Instruction = KernelCall | DelegateCall | MoveCall | JumpFalseCall | FreeCall


@dataclass(frozen=True)
class Method:
    name: str
    values: tuple[Value, ...]
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    instructions: tuple[Instruction, ...]
    delegates: tuple[str, ...] = field(default=())  # backend ids


_KINDS = slots.KernelTypes
VALUE_TAGS: dict[type, slots.KernelTypes] = {
    type(None): _KINDS.NULL,
    int: _KINDS.INT,
    bool: _KINDS.BOOL,
    float: _KINDS.DOUBLE,
    Tensor: _KINDS.TENSOR,
    str: _KINDS.STRING,
    IntList: _KINDS.INT_LIST,
    DoubleList: _KINDS.DOUBLE_LIST,
    BoolList: _KINDS.BOOL_LIST,
    TensorList: _KINDS.TENSOR_LIST,
    OptionalTensorList: _KINDS.OPTIONAL_TENSOR_LIST,
}
_CALLS = slots.InstructionArguments
INSTRUCTION_TAGS: dict[type, slots.InstructionArguments] = {
    KernelCall: _CALLS.KERNEL_CALL,
    DelegateCall: _CALLS.DELEGATE_CALL,
    MoveCall: _CALLS.MOVE_CALL,
    JumpFalseCall: _CALLS.JUMP_FALSE_CALL,
    FreeCall: _CALLS.FREE_CALL,
}
