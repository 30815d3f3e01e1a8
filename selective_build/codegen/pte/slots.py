"""The vtable slots and union tags of ExecuTorch's `schema/program.fbs`, written once.

Slot n is the n-th field of a table in declaration order; a union field takes two slots,
its hidden type tag first, then its value. The reader (`codegen.pte`) and the writer
(`codegen.pte.writer`) use these numbers; the C sides are generated from them
(`codegen/pte/slot_headers.py`: the runtime's `runtime/loader/schema.h` and the C reader's
`codegen/pte/_slots.h`). Every field up to the last one anything uses is listed, so the
numbering can be checked against the declaration order by eye.
"""

from __future__ import annotations

from enum import IntEnum

# Int, Bool, Double, String and the list tables each hold their one field in slot 0.
PAYLOAD = 0


class Program(IntEnum):
    VERSION = 0
    EXECUTION_PLAN = 1
    CONSTANT_BUFFER = 2
    BACKEND_DELEGATE_DATA = 3
    SEGMENTS = 4
    CONSTANT_SEGMENT = 5
    MUTABLE_DATA_SEGMENTS = 6
    NAMED_DATA = 7


class ExecutionPlan(IntEnum):
    NAME = 0
    CONTAINER_META_TYPE = 1
    VALUES = 2
    INPUTS = 3
    OUTPUTS = 4
    CHAINS = 5
    OPERATORS = 6
    DELEGATES = 7
    NON_CONST_BUFFER_SIZES = 8


class Chain(IntEnum):
    INPUTS = 0
    OUTPUTS = 1
    INSTRUCTIONS = 2
    STACKTRACE = 3


class Instruction(IntEnum):
    ARGS_TYPE = 0  # the union's type tag (an InstructionArguments)
    ARGS = 1


class InstructionArguments(IntEnum):
    """The union tags of Instruction.ARGS."""

    KERNEL_CALL = 1
    DELEGATE_CALL = 2
    MOVE_CALL = 3
    JUMP_FALSE_CALL = 4
    FREE_CALL = 5


class KernelCall(IntEnum):
    OP_INDEX = 0
    ARGS = 1


class DelegateCall(IntEnum):
    DELEGATE_INDEX = 0
    ARGS = 1


class MoveCall(IntEnum):
    MOVE_FROM = 0
    MOVE_TO = 1


class JumpFalseCall(IntEnum):
    COND_VALUE_INDEX = 0
    DESTINATION_INSTRUCTION = 1


class FreeCall(IntEnum):
    VALUE_INDEX = 0


class Operator(IntEnum):
    NAME = 0
    OVERLOAD = 1


class BackendDelegate(IntEnum):
    ID = 0
    PROCESSED = 1
    COMPILE_SPECS = 2


class BackendDelegateDataReference(IntEnum):
    LOCATION = 0  # a DataLocation
    INDEX = 1


class DataLocation(IntEnum):
    INLINE = 0
    SEGMENT = 1


class BackendDelegateInlineData(IntEnum):
    DATA = 0


class EValue(IntEnum):
    VAL_TYPE = 0  # the union's type tag (a KernelTypes)
    VAL = 1


class KernelTypes(IntEnum):
    """The union tags of EValue.VAL (NONE: no value stored)."""

    NONE = 0
    NULL = 1
    INT = 2
    BOOL = 3
    DOUBLE = 4
    TENSOR = 5
    STRING = 6
    INT_LIST = 7
    DOUBLE_LIST = 8
    BOOL_LIST = 9
    TENSOR_LIST = 10
    OPTIONAL_TENSOR_LIST = 11


class Tensor(IntEnum):
    SCALAR_TYPE = 0
    STORAGE_OFFSET = 1
    SIZES = 2
    DIM_ORDER = 3
    REQUIRES_GRAD = 4
    DATA_BUFFER_IDX = 5
    ALLOCATION_INFO = 6
    LAYOUT = 7
    SHAPE_DYNAMISM = 8
    EXTRA_TENSOR_INFO = 9


class TensorShapeDynamism(IntEnum):
    STATIC = 0
    DYNAMIC_BOUND = 1
    DYNAMIC_UNBOUND = 2


class ExtraTensorInfo(IntEnum):
    MUTABLE_DATA_SEGMENTS_IDX = 0
    FULLY_QUALIFIED_NAME = 1
    LOCATION = 2  # a TensorDataLocation


class TensorDataLocation(IntEnum):
    SEGMENT = 0
    EXTERNAL = 1


class AllocationDetails(IntEnum):
    MEMORY_ID = 0
    MEMORY_OFFSET_LOW = 1
    MEMORY_OFFSET_HIGH = 2


class Buffer(IntEnum):
    STORAGE = 0


class DataSegment(IntEnum):
    OFFSET = 0
    SIZE = 1


class SubsegmentOffsets(IntEnum):
    SEGMENT_INDEX = 0
    OFFSETS = 1


# The enum each enum-valued field holds: a union's type tag (UNIONS: the tags of the union
# whose value is the next slot) or a plain enum field (ENUM_FIELDS). What is not one of these
# enums is a table. Pairs, not a mapping: members of two tables may be equal numbers.
UNIONS: tuple[tuple[IntEnum, type[IntEnum]], ...] = (
    (Instruction.ARGS_TYPE, InstructionArguments),
    (EValue.VAL_TYPE, KernelTypes),
)
ENUM_FIELDS: tuple[tuple[IntEnum, type[IntEnum]], ...] = (
    (BackendDelegateDataReference.LOCATION, DataLocation),
    (Tensor.SHAPE_DYNAMISM, TensorShapeDynamism),
    (ExtraTensorInfo.LOCATION, TensorDataLocation),
)
