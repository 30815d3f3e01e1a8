"""Where the parts of a `.pte` flatbuffer are: tables, vtables, offsets, vectors, union
tags and scalars, found by walking the program from its root with the schema's field kinds.

The mutators use it to lie in the right places (an offset, a vtable entry, a union tag, a
vector's length) instead of flipping bytes blindly. The walk is defensive: a part outside
the file, or one already seen, ends that branch; it never raises.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

# Field kinds by type of program.fbs, by slot (a union takes two slots: its tag, then the
# value; the value's slot is listed). ("table", T), ("tables", T): a table or a vector of
# tables; ("string",); ("scalars", size): a vector of scalars; ("scalar", size);
# ("union", {tag: T}).
_INSTRUCTIONS = {
    1: "KernelCall",
    2: "DelegateCall",
    3: "MoveCall",
    4: "JumpFalseCall",
    5: "FreeCall",
}
_VALUES = {
    2: "Int",
    3: "Bool",
    4: "Double",
    5: "Tensor",
    6: "String",
    7: "IntList",
    8: "DoubleList",
    9: "BoolList",
    10: "TensorList",
    11: "OptionalTensorList",
}
Kind = tuple[object, ...]
SCHEMA: dict[str, dict[int, Kind]] = {
    "Program": {
        0: ("scalar", 4),
        1: ("tables", "ExecutionPlan"),
        2: ("tables", "Buffer"),
        3: ("tables", "BackendDelegateInlineData"),
        4: ("tables", "DataSegment"),
        5: ("table", "SubsegmentOffsets"),
        6: ("tables", "SubsegmentOffsets"),
    },
    "ExecutionPlan": {
        0: ("string",),
        1: ("table", "ContainerMetadata"),
        2: ("tables", "EValue"),
        3: ("scalars", 4),
        4: ("scalars", 4),
        5: ("tables", "Chain"),
        6: ("tables", "Operator"),
        7: ("tables", "BackendDelegate"),
        8: ("scalars", 8),
    },
    "ContainerMetadata": {0: ("string",), 1: ("string",)},
    "EValue": {0: ("scalar", 1), 1: ("union", _VALUES)},
    "Int": {0: ("scalar", 8)},
    "Bool": {0: ("scalar", 1)},
    "Double": {0: ("scalar", 8)},
    "String": {0: ("string",)},
    "IntList": {0: ("scalars", 8)},
    "DoubleList": {0: ("scalars", 8)},
    "BoolList": {0: ("scalars", 1)},
    "TensorList": {0: ("scalars", 4)},
    "OptionalTensorList": {0: ("scalars", 4)},
    "Tensor": {
        0: ("scalar", 1),
        1: ("scalar", 4),
        2: ("scalars", 4),
        3: ("scalars", 1),
        4: ("scalar", 1),
        5: ("scalar", 4),
        6: ("table", "AllocationDetails"),
        7: ("scalar", 1),
        8: ("scalar", 1),
        9: ("table", "ExtraTensorInfo"),
    },
    "AllocationDetails": {0: ("scalar", 4), 1: ("scalar", 4), 2: ("scalar", 4)},
    "ExtraTensorInfo": {0: ("scalar", 8), 1: ("string",), 2: ("scalar", 1)},
    "Chain": {0: ("scalars", 4), 1: ("scalars", 4), 2: ("tables", "Instruction")},
    "Instruction": {0: ("scalar", 1), 1: ("union", _INSTRUCTIONS)},
    "KernelCall": {0: ("scalar", 4), 1: ("scalars", 4)},
    "DelegateCall": {0: ("scalar", 4), 1: ("scalars", 4)},
    "MoveCall": {0: ("scalar", 4), 1: ("scalar", 4)},
    "JumpFalseCall": {0: ("scalar", 4), 1: ("scalar", 4)},
    "FreeCall": {0: ("scalar", 4)},
    "Operator": {0: ("string",), 1: ("string",)},
    "BackendDelegate": {
        0: ("string",),
        1: ("table", "BackendDelegateDataReference"),
        2: ("tables", "CompileSpec"),
    },
    "BackendDelegateDataReference": {0: ("scalar", 1), 1: ("scalar", 4)},
    "CompileSpec": {0: ("string",), 1: ("scalars", 1)},
    "Buffer": {0: ("scalars", 1)},
    "BackendDelegateInlineData": {0: ("scalars", 1)},
    "DataSegment": {0: ("scalar", 8), 1: ("scalar", 8)},
    "SubsegmentOffsets": {0: ("scalar", 4), 1: ("scalars", 8)},
}

EXTENDED_HEADER = b"eh00"


@dataclass(frozen=True)
class TableAt:
    position: int
    vtable: int
    type: str


@dataclass(frozen=True)
class VectorAt:
    position: int  # of the u32 length
    length: int
    element_size: int


@dataclass
class Layout:
    """The parts found; positions are byte offsets into the file."""

    tables: list[TableAt] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)  # u32 uoffsets (fields and elements)
    table_vectors: list[list[int]] = field(default_factory=list)  # element offset positions
    vectors: list[VectorAt] = field(default_factory=list)
    union_tags: list[int] = field(default_factory=list)
    scalars: list[tuple[int, int]] = field(default_factory=list)  # (position, size)
    header: tuple[int, int] | None = None  # (position, length) of the extended header

    def tables_of(self, type_name: str) -> list[TableAt]:
        return [t for t in self.tables if t.type == type_name]


def _u32(data: bytes, position: int) -> int | None:
    if position < 0 or position + 4 > len(data):
        return None
    value: int = struct.unpack_from("<I", data, position)[0]
    return value


def _u16(data: bytes, position: int) -> int | None:
    if position < 0 or position + 2 > len(data):
        return None
    value: int = struct.unpack_from("<H", data, position)[0]
    return value


class _Walker:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.layout = Layout()
        self.seen: set[int] = set()

    def table(self, position: int, type_name: str) -> None:
        data = self.data
        if position in self.seen or position + 4 > len(data) or type_name not in SCHEMA:
            return
        self.seen.add(position)
        vtable = position - struct.unpack_from("<i", data, position)[0]
        vsize = _u16(data, vtable)
        if vsize is None or vsize < 4 or vtable + vsize > len(data):
            return
        self.layout.tables.append(TableAt(position, vtable, type_name))
        fields = SCHEMA[type_name]
        for slot in range((vsize - 4) // 2):
            offset = _u16(data, vtable + 4 + 2 * slot)
            if not offset or slot not in fields:
                continue
            at = position + offset
            kind = fields[slot]
            if kind[0] == "scalar":
                size = int(str(kind[1]))
                if at + size <= len(data):
                    self.layout.scalars.append((at, size))
                continue
            target = self.offset(at)
            if target is None:
                continue
            if kind[0] == "table":
                self.table(target, str(kind[1]))
            elif kind[0] == "tables":
                self.table_vector(target, str(kind[1]))
            elif kind[0] == "string":
                self.vector(target, 1)
            elif kind[0] == "scalars":
                self.vector(target, int(str(kind[1])))
            elif kind[0] == "union":
                tag_offset = _u16(data, vtable + 4 + 2 * (slot - 1))
                if not tag_offset or position + tag_offset >= len(data):
                    continue
                self.layout.union_tags.append(position + tag_offset)
                types = kind[1]
                assert isinstance(types, dict)
                tag = data[position + tag_offset]
                if tag in types:
                    self.table(target, types[tag])

    def offset(self, at: int) -> int | None:
        value = _u32(self.data, at)
        if value is None:
            return None
        self.layout.offsets.append(at)
        target = at + value
        return target if target < len(self.data) else None

    def vector(self, position: int, element_size: int) -> int | None:
        length = _u32(self.data, position)
        if length is None or position + 4 + length * element_size > len(self.data):
            return None
        self.layout.vectors.append(VectorAt(position, length, element_size))
        for i in range(min(length, 64)):  # enough targets; a long vector's tail adds none new
            self.layout.scalars.append((position + 4 + i * element_size, element_size))
        return length

    def table_vector(self, position: int, type_name: str) -> None:
        length = _u32(self.data, position)
        if length is None or position + 4 + 4 * length > len(self.data):
            return
        self.layout.vectors.append(VectorAt(position, length, 4))
        elements = [position + 4 + 4 * i for i in range(length)]
        self.layout.table_vectors.append(elements)
        for at in elements:
            target = self.offset(at)
            if target is not None:
                self.table(target, type_name)


def walk(data: bytes) -> Layout:
    """The parts of the program in `data` (as many as can be reached)."""
    walker = _Walker(data)
    if len(data) >= 40 and data[8:12] == EXTENDED_HEADER:
        length = _u32(data, 12) or 0
        walker.layout.header = (8, max(8, min(length, len(data) - 8)))
    root = _u32(data, 0)
    if root is not None and len(data) >= 8:
        walker.table(root, "Program")
    return walker.layout
