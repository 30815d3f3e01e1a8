"""A bounds-checked, read-only view of flatbuffer tables.

The `flatbuffers` package trusts its input; a `.pte` file may be truncated or hostile, so
every offset, length and vtable entry is checked here before it is followed. Failures
raise `FlatbufferError` with the byte offset at fault.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

_U8 = struct.Struct("<B")
_U16 = struct.Struct("<H")
_I32 = struct.Struct("<i")
_U32 = struct.Struct("<I")
_I64 = struct.Struct("<q")
_U64 = struct.Struct("<Q")
_F64 = struct.Struct("<d")


class FlatbufferError(ValueError):
    """The buffer does not hold a well-formed flatbuffer at the named offset."""


@dataclass(frozen=True)
class Buffer:
    """The bytes of a flatbuffer and checked primitive reads at absolute offsets."""

    data: bytes | memoryview

    def _read(self, fmt: struct.Struct, offset: int, what: str) -> int:
        if offset < 0 or offset + fmt.size > len(self.data):
            raise FlatbufferError(
                f"{what} at byte {offset} lies outside the {len(self.data)}-byte flatbuffer"
            )
        value: int = fmt.unpack_from(self.data, offset)[0]
        return value

    def u8(self, offset: int, what: str) -> int:
        return self._read(_U8, offset, what)

    def u16(self, offset: int, what: str) -> int:
        return self._read(_U16, offset, what)

    def i32(self, offset: int, what: str) -> int:
        return self._read(_I32, offset, what)

    def u32(self, offset: int, what: str) -> int:
        return self._read(_U32, offset, what)

    def i64(self, offset: int, what: str) -> int:
        return self._read(_I64, offset, what)

    def u64(self, offset: int, what: str) -> int:
        return self._read(_U64, offset, what)

    def f64(self, offset: int, what: str) -> float:
        if offset < 0 or offset + 8 > len(self.data):
            raise FlatbufferError(f"{what} at byte {offset} lies outside the flatbuffer")
        value: float = _F64.unpack_from(self.data, offset)[0]
        return value

    def root(self) -> Table:
        """The root table, whose offset is the first four bytes."""
        return Table.at(self, self.u32(0, "root table offset"), "root table")


@dataclass(frozen=True)
class Table:
    """One flatbuffer table: its position and checked vtable."""

    buffer: Buffer
    position: int
    vtable: int
    vtable_size: int
    what: str

    @classmethod
    def at(cls, buffer: Buffer, position: int, what: str) -> Table:
        vtable = position - buffer.i32(position, f"{what} vtable offset")
        vtable_size = buffer.u16(vtable, f"{what} vtable size")
        if vtable_size < 4 or vtable_size % 2 or vtable + vtable_size > len(buffer.data):
            raise FlatbufferError(
                f"{what} at byte {position} has a malformed vtable at byte {vtable}"
            )
        return cls(buffer, position, vtable, vtable_size, what)

    def _field(self, slot: int) -> int | None:
        """Absolute offset of field `slot`, or None when the field is absent."""
        entry = 4 + 2 * slot
        if entry >= self.vtable_size:
            return None
        relative = self.buffer.u16(self.vtable + entry, f"{self.what} vtable entry")
        return self.position + relative if relative else None

    def _indirect(self, slot: int, what: str) -> int | None:
        field = self._field(slot)
        if field is None:
            return None
        return field + self.buffer.u32(field, what)

    def u8(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else self.buffer.u8(field, f"{self.what} field {slot}")

    def i32(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else self.buffer.i32(field, f"{self.what} field {slot}")

    def u32(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else self.buffer.u32(field, f"{self.what} field {slot}")

    def i64(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else self.buffer.i64(field, f"{self.what} field {slot}")

    def u64(self, slot: int, default: int = 0) -> int:
        field = self._field(slot)
        return default if field is None else self.buffer.u64(field, f"{self.what} field {slot}")

    def f64(self, slot: int, default: float = 0.0) -> float:
        field = self._field(slot)
        return default if field is None else self.buffer.f64(field, f"{self.what} field {slot}")

    def table(self, slot: int, what: str) -> Table | None:
        target = self._indirect(slot, what)
        return None if target is None else Table.at(self.buffer, target, what)

    def string(self, slot: int, what: str) -> str | None:
        target = self._indirect(slot, what)
        if target is None:
            return None
        raw = self._bytes_at(target, 1, what)
        try:
            return bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise FlatbufferError(f"{what} at byte {target} is not UTF-8") from None

    def _bytes_at(self, target: int, element_size: int, what: str) -> memoryview:
        length = self.buffer.u32(target, f"{what} length")
        start = target + 4
        end = start + length * element_size
        if end > len(self.buffer.data):
            raise FlatbufferError(
                f"{what} at byte {target} claims {length} elements, past the end of the flatbuffer"
            )
        return memoryview(self.buffer.data)[start:end]

    def scalars(self, slot: int, fmt: str, what: str) -> tuple[int, ...]:
        """A vector of scalars (`fmt` a struct code such as 'i', 'q', 'B')."""
        target = self._indirect(slot, what)
        if target is None:
            return ()
        size = struct.calcsize("<" + fmt)
        raw = self._bytes_at(target, size, what)
        return struct.unpack_from(f"<{len(raw) // size}{fmt}", raw)

    def floats(self, slot: int, what: str) -> tuple[float, ...]:
        target = self._indirect(slot, what)
        if target is None:
            return ()
        raw = self._bytes_at(target, 8, what)
        return struct.unpack_from(f"<{len(raw) // 8}d", raw)

    def tables(self, slot: int, what: str) -> Iterator[Table]:
        """The tables of a vector of tables, each checked as it is reached."""
        target = self._indirect(slot, what)
        if target is None:
            return
        count = len(self._bytes_at(target, 4, what)) // 4
        for index in range(count):
            element = target + 4 + 4 * index
            yield Table.at(
                self.buffer, element + self.buffer.u32(element, what), f"{what}[{index}]"
            )

    def union(self, type_slot: int, what: str) -> tuple[int, Table | None]:
        """A union stored as its type tag in `type_slot` and its table in the next slot."""
        tag = self.u8(type_slot)
        return tag, (self.table(type_slot + 1, what) if tag else None)
