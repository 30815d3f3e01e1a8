"""A bounds-checked, read-only view of flatbuffer tables.

The `flatbuffers` package trusts its input; a `.pte` file may be truncated or hostile, so
every offset, length and vtable entry is checked here before it is followed. Failures
raise `FlatbufferError` naming the byte offset at fault. Descriptions of what is being
read are only formatted when something fails: a large program holds tens of thousands
of tables, and reading them is the hot path of selection.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import TypeAlias

_U8 = struct.Struct("<B")
_U16 = struct.Struct("<H")
_I32 = struct.Struct("<i")
_U32 = struct.Struct("<I")
_SCALAR_SIZES = {"B": 1, "i": 4, "q": 8, "Q": 8, "d": 8}

# What is being read: a name, or a (vector name, index) pair formatted on failure.
What = str | tuple[str, int]
# The flatbuffer: bytes, or a memory map of the file (only the pages read are loaded).
Readable: TypeAlias = bytes | memoryview


class FlatbufferError(ValueError):
    """The buffer does not hold a well-formed flatbuffer at the named offset."""


def _describe(what: What) -> str:
    return what if isinstance(what, str) else f"{what[0]}[{what[1]}]"


def _read(fmt: struct.Struct, data: Readable, offset: int, what: What, part: str) -> int:
    # unpack_from checks the end itself; a negative offset would count from the end.
    if offset >= 0:
        try:
            value: int = fmt.unpack_from(data, offset)[0]
            return value
        except struct.error:
            pass
    raise FlatbufferError(
        f"{_describe(what)} {part} at byte {offset} lies outside the {len(data)}-byte flatbuffer"
    )


def root(data: Readable) -> Table:
    """The root table, whose offset is the first four bytes."""
    return Table.at(data, _read(_U32, data, 0, "root table", "offset"), "root table")


class Table:
    """One flatbuffer table: its position and checked vtable."""

    __slots__ = ("data", "position", "vtable", "vtable_size", "what")

    def __init__(self, data: Readable, position: int, vtable: int, vtable_size: int, what: What):
        self.data = data
        self.position = position
        self.vtable = vtable
        self.vtable_size = vtable_size
        self.what = what

    @classmethod
    def at(cls, data: Readable, position: int, what: What) -> Table:
        vtable = position - _read(_I32, data, position, what, "vtable offset")
        vtable_size = _read(_U16, data, vtable, what, "vtable size")
        if vtable_size < 4 or vtable_size % 2 or vtable + vtable_size > len(data):
            raise FlatbufferError(
                f"{_describe(what)} at byte {position} has a malformed vtable at byte {vtable}"
            )
        return cls(data, position, vtable, vtable_size, what)

    def _field(self, slot: int) -> int | None:
        """Absolute offset of field `slot`, or None when the field is absent."""
        entry = 4 + 2 * slot
        if entry >= self.vtable_size:
            return None
        # In bounds: `at` checked that the whole vtable lies inside the buffer.
        relative: int = _U16.unpack_from(self.data, self.vtable + entry)[0]
        return self.position + relative if relative else None

    def _indirect(self, slot: int, what: What) -> int | None:
        field = self._field(slot)
        if field is None:
            return None
        return field + _read(_U32, self.data, field, what, "offset")

    def u8(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else _read(_U8, self.data, field, self.what, "field")

    def i32(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else _read(_I32, self.data, field, self.what, "field")

    def table(self, slot: int, what: What) -> Table | None:
        target = self._indirect(slot, what)
        return None if target is None else Table.at(self.data, target, what)

    def string(self, slot: int, what: What) -> str | None:
        target = self._indirect(slot, what)
        if target is None:
            return None
        start, end = self._vector_span(target, 1, what)
        try:
            return str(self.data[start:end], "utf-8")
        except UnicodeDecodeError:
            raise FlatbufferError(f"{_describe(what)} at byte {target} is not UTF-8") from None

    def _vector_span(self, target: int, element_size: int, what: What) -> tuple[int, int]:
        """(start, end) of a vector's elements, checked to lie inside the buffer."""
        length = _read(_U32, self.data, target, what, "length")
        end = target + 4 + length * element_size
        if end > len(self.data):
            raise FlatbufferError(
                f"{_describe(what)} at byte {target} claims {length} elements, "
                "past the end of the flatbuffer"
            )
        return target + 4, end

    def length(self, slot: int, what: What) -> int:
        """The length of the vector of offsets in field `slot` (0 when absent), checked."""
        target = self._indirect(slot, what)
        if target is None:
            return 0
        start, end = self._vector_span(target, 4, what)
        return (end - start) // 4

    def scalars(self, slot: int, fmt: str, what: What) -> tuple[int, ...]:
        """A vector of scalars (`fmt` one struct code: 'B', 'i', 'q', 'Q', 'd')."""
        target = self._indirect(slot, what)
        if target is None:
            return ()
        size = _SCALAR_SIZES[fmt]
        start, end = self._vector_span(target, size, what)
        return struct.unpack_from(f"<{(end - start) // size}{fmt}", self.data, start)

    def tables(self, slot: int, what: str) -> Iterator[Table]:
        """The tables of a vector of tables, each checked as it is reached."""
        target = self._indirect(slot, what)
        if target is None:
            return
        start, end = self._vector_span(target, 4, what)
        data = self.data
        for index, element in enumerate(range(start, end, 4)):
            offset: int = _U32.unpack_from(data, element)[0]  # in the checked span
            yield Table.at(data, element + offset, (what, index))

    def table_at(self, slot: int, index: int, what: str) -> Table:
        """Element `index` of the vector of tables in field `slot`, checked (a vector that
        is absent or shorter is a FlatbufferError)."""
        target = self._indirect(slot, what)
        start, end = (0, 0) if target is None else self._vector_span(target, 4, what)
        element = start + 4 * index
        if index < 0 or element >= end:
            raise FlatbufferError(f"{what} has no element {index}")
        offset: int = _U32.unpack_from(self.data, element)[0]  # in the checked span
        return Table.at(self.data, element + offset, (what, index))

    def union(self, type_slot: int, what: What) -> tuple[int, Table | None]:
        """A union stored as its type tag in `type_slot` and its table in the next slot."""
        tag = self.u8(type_slot)
        return tag, (self.table(type_slot + 1, what) if tag else None)


# Reading many tables at once. A large program holds hundreds of thousands of kernel
# calls; visiting each through `Table` costs microseconds apiece in Python, so their keys
# are read in C (`codegen.pte.native`) or, where it was not built, with numpy
# (`codegen.pte.batch`), with the same checks.
