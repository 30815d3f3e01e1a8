"""Batches of flatbuffer tables read with numpy: one call per field for thousands of tables.

The same checks as `codegen.pte.table` (every offset, length and vtable entry is bounded
before it is followed), applied to arrays of positions at once; the reader's `Work` bounds
the total work a hostile file can ask for. Used where the C reader (`codegen.pte.native`)
was not built: numpy is imported only then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from selective_build.codegen.pte.distinct import Array, distinct
from selective_build.codegen.pte.table import FlatbufferError, Readable
from selective_build.codegen.pte.work import Work


class Buffer:
    """The flatbuffer as a byte array, and the work spent reading it (elements gathered:
    vector entries, bytes of dim orders)."""

    def __init__(self, data: Readable, work: Work) -> None:
        self.size = len(data)
        self.bytes: NDArray[np.uint8] = np.frombuffer(data, np.uint8)
        # Word views for aligned reads (the tail that is not a whole word is read bytewise).
        self._views: dict[int, NDArray[np.unsignedinteger[Any]]] = {
            2: np.frombuffer(data, "<u2", count=self.size // 2),
            4: np.frombuffer(data, "<u4", count=self.size // 4),
        }
        self._i32: NDArray[np.int32] = np.frombuffer(data, "<i4", count=self.size // 4)
        self.work = work

    def unsigned(self, positions: Array, width: int, what: str, part: str) -> Array:
        """The little-endian unsigned `width`-byte integers at `positions`, checked."""
        self._check(positions, width, what, part)
        view = self._views.get(width)
        if view is not None and _aligned(positions, width):
            # Aligned, as a well-formed flatbuffer always is: one gather per value.
            result: Array = view[positions >> (width.bit_length() - 1)].astype(np.int64)
            return result
        value = self.bytes[positions].astype(np.int64)
        for index in range(1, width):
            value |= self.bytes[positions + index].astype(np.int64) << (8 * index)
        return value

    def signed32(self, positions: Array, what: str, part: str) -> Array:
        self._check(positions, 4, what, part)
        if _aligned(positions, 4):
            result: Array = self._i32[positions >> 2].astype(np.int64)
            return result
        value = self.unsigned(positions, 4, what, part)
        signed: Array = np.where(value >= 1 << 31, value - (1 << 32), value)
        return signed

    def _check(self, positions: Array, width: int, what: str, part: str) -> None:
        # As unsigned, a negative position is huge: one comparison checks both ends.
        unsigned = positions.view(np.uint64)
        if len(positions) and int(unsigned.max()) > self.size - width:
            offset = int(positions[int((unsigned > self.size - width).argmax())])
            raise FlatbufferError(
                f"{what} {part} at byte {offset} lies outside the {self.size}-byte flatbuffer"
            )

    def elements(self, starts: Array, lengths: Array, size: int, what: str) -> Array:
        """The position of every element of the vectors (`starts`, `lengths`), in order."""
        total = int(lengths.sum())
        self.work.charge(total, what)
        first = np.cumsum(lengths) - lengths
        owner = np.repeat(np.arange(len(lengths)), lengths)
        index = np.arange(total, dtype=np.int64) - first[owner]
        result: Array = starts[owner] + size * index
        return result

    def tables(self, starts: Array, lengths: Array, what: str) -> Tables:
        """The distinct tables a batch of offset vectors points at (each visited once)."""
        entries = self.elements(starts, lengths, 4, what)
        return Tables(self, distinct(entries + self.unsigned(entries, 4, what, "offset")), what)


class Tables:
    """Distinct tables of one kind, read together: positions and checked vtables."""

    def __init__(self, buffer: Buffer, positions: Array, what: str) -> None:
        self.buffer = buffer
        self.positions = positions
        self.what = what
        self.vtables = positions - buffer.signed32(positions, what, "vtable offset")
        # Builders share one vtable between tables of the same shape: then every field is
        # at the same distance in every table, read once.
        self.shared_vtable: int | None = None
        if len(positions) and int(self.vtables.min()) == int(self.vtables.max()):
            self.shared_vtable = int(self.vtables[0])
            size = buffer.unsigned(self.vtables[:1], 2, what, "vtable size")
            self.vtable_sizes = np.full(len(positions), int(size[0]), np.int64)
        else:
            self.vtable_sizes = buffer.unsigned(self.vtables, 2, what, "vtable size")
        bad = (
            (self.vtable_sizes < 4)
            | (self.vtable_sizes % 2 != 0)
            | (self.vtables + self.vtable_sizes > buffer.size)
        )
        if bad.any():
            index = int(bad.argmax())
            raise FlatbufferError(
                f"{what} at byte {int(positions[index])} has a malformed vtable "
                f"at byte {int(self.vtables[index])}"
            )

    def __len__(self) -> int:
        return len(self.positions)

    def select(self, mask: Array | slice) -> Tables:
        chosen = object.__new__(Tables)
        chosen.buffer, chosen.what = self.buffer, self.what
        chosen.positions = self.positions[mask]
        chosen.vtables = self.vtables[mask]
        chosen.vtable_sizes = self.vtable_sizes[mask]
        chosen.shared_vtable = self.shared_vtable
        return chosen

    def field(self, slot: int) -> Array:
        """Absolute offset of field `slot` of each table; -1 where it is absent."""
        entry = 4 + 2 * slot
        # In bounds: the constructor checked that every vtable lies inside the buffer.
        if self.shared_vtable is not None:
            size = int(self.vtable_sizes[0]) if len(self) else 0
            position = np.array([self.shared_vtable + entry], np.int64)
            distance = (
                int(self.buffer.unsigned(position, 2, self.what, "vtable")[0])
                if size > entry
                else 0
            )
            shared: Array = self.positions + distance if distance else np.full(len(self), -1)
            return shared
        if not len(self) or int(self.vtable_sizes.min()) > entry:  # every vtable has the slot
            relative = self.buffer.unsigned(self.vtables + entry, 2, self.what, "vtable")
        else:
            present = self.vtable_sizes > entry
            relative = np.zeros(len(self.positions), np.int64)
            relative[present] = self.buffer.unsigned(
                self.vtables[present] + entry, 2, self.what, "vtable"
            )
        result: Array = np.where(relative > 0, self.positions + relative, -1)
        return result

    def scalar(self, slot: int, width: int, signed: bool = False) -> Array:
        """Field `slot` as an integer of `width` bytes; 0 where absent (the schema default)."""
        field = self.field(slot)
        return self._follow(field, lambda at: self._read(at, width, signed, "field"), 0)

    def indirect(self, slot: int) -> Array:
        """Where the table or vector that field `slot` points at starts; -1 where absent."""
        field = self.field(slot)
        return self._follow(field, lambda at: at + self._read(at, 4, False, "offset"), -1)

    def _read(self, positions: Array, width: int, signed: bool, part: str) -> Array:
        if signed:
            return self.buffer.signed32(positions, self.what, part)
        return self.buffer.unsigned(positions, width, self.what, part)

    @staticmethod
    def _follow(field: Array, read: Callable[[Array], Array], absent: int) -> Array:
        """`read` at each present field, `absent` where the field is absent."""
        if not len(field) or int(field.min()) >= 0:
            return read(field)
        present = field >= 0
        value = np.full(len(field), absent, np.int64)
        value[present] = read(field[present])
        return value

    def vectors(self, slot: int, element_size: int) -> tuple[Array, Array]:
        """(first element, length) of the vector in field `slot`; (-1, 0) where absent."""
        target = self.indirect(slot)
        present = target >= 0
        lengths = np.zeros(len(target), np.int64)
        lengths[present] = self.buffer.unsigned(target[present], 4, self.what, "length")
        ends = target + 4 + lengths * element_size
        bad = present & (ends > self.buffer.size)
        if bad.any():
            index = int(bad.argmax())
            raise FlatbufferError(
                f"{self.what} at byte {int(target[index])} claims {int(lengths[index])} "
                "elements, past the end of the flatbuffer"
            )
        starts: Array = np.where(present, target + 4, -1)
        return starts, lengths


# numpy's `unique` hashes integers (numpy >= 2.3), a hundred times slower than sorting
# them on arrays of many distinct positions: the reader sorts instead.


def _aligned(positions: Array, width: int) -> bool:
    """Whether every position is a multiple of `width` (a power of two)."""
    return not len(positions) or not int(np.bitwise_or.reduce(positions)) & (width - 1)
