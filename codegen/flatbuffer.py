"""A bounds-checked, read-only view of flatbuffer tables.

The `flatbuffers` package trusts its input; a `.pte` file may be truncated or hostile, so
every offset, length and vtable entry is checked here before it is followed. Failures
raise `FlatbufferError` naming the byte offset at fault. Descriptions of what is being
read are only formatted when something fails: a large program holds tens of thousands
of tables, and reading them is the hot path of selection.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

_U8 = struct.Struct("<B")
_U16 = struct.Struct("<H")
_I32 = struct.Struct("<i")
_U32 = struct.Struct("<I")
_SCALAR_SIZES = {"B": 1, "i": 4, "q": 8, "Q": 8, "d": 8}

# What is being read: a name, or a (vector name, index) pair formatted on failure.
What = str | tuple[str, int]
# The flatbuffer: bytes, or a memory map of the file (only the pages read are loaded).
Readable: TypeAlias = bytes | memoryview
# Positions or values of a batch of tables, one int64 per table.
Array: TypeAlias = NDArray[np.int64]
# The work cap of `Buffer`: elements gathered per byte of flatbuffer, plus a fixed allowance
# so that small programs with many methods never meet it.
WORK_PER_BYTE = 4
WORK_ALLOWANCE = 1 << 20


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

    def union(self, type_slot: int, what: What) -> tuple[int, Table | None]:
        """A union stored as its type tag in `type_slot` and its table in the next slot."""
        tag = self.u8(type_slot)
        return tag, (self.table(type_slot + 1, what) if tag else None)


# Reading many tables at once. A large program holds hundreds of thousands of kernel
# calls; visiting each through `Table` costs microseconds apiece in Python, so the reader
# gathers every table of one kind with numpy instead: the same checks, over arrays.
class Buffer:
    """The flatbuffer as a byte array, and the work spent reading it.

    Work is counted in elements gathered (vector entries, bytes of dim orders) and capped
    in proportion to the buffer's size: a well-formed program stores every element once,
    so only tables shared many times over (hundreds of plans pointing at one plan) or
    overlapping vectors can exceed it, and they end in one error instead of minutes.
    """

    def __init__(self, data: Readable) -> None:
        self.size = len(data)
        self.bytes: NDArray[np.uint8] = np.frombuffer(data, np.uint8)
        # Word views for aligned reads (the tail that is not a whole word is read bytewise).
        self._views: dict[int, NDArray[np.unsignedinteger[Any]]] = {
            2: np.frombuffer(data, "<u2", count=self.size // 2),
            4: np.frombuffer(data, "<u4", count=self.size // 4),
        }
        self._i32: NDArray[np.int32] = np.frombuffer(data, "<i4", count=self.size // 4)
        self.work = 0
        self.budget = WORK_PER_BYTE * self.size + WORK_ALLOWANCE

    def charge(self, count: int, what: str) -> None:
        self.work += count
        if self.work > self.budget:
            raise FlatbufferError(
                f"reading {what} takes more than {self.budget:,} steps for a "
                f"{self.size:,}-byte flatbuffer (tables or vectors shared many times over)"
            )

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
        self.charge(total, what)
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
def distinct(values: Array) -> Array:
    """The distinct values, sorted."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    result: Array = ordered[keep]
    return result


def distinct_rows(matrix: Array) -> Array:
    """The distinct rows of `matrix`, sorted."""
    if _fits_one_code(matrix):
        low, spans = _spans(matrix)
        return _decode_rows(distinct(_row_codes(matrix, low, spans)), low, spans)
    return matrix[_distinct_row_order(matrix)[0]]


def distinct_rows_inverse(matrix: Array) -> tuple[Array, Array]:
    """The distinct rows of `matrix` (sorted) and, per row, the index of its distinct row."""
    if _fits_one_code(matrix):
        low, spans = _spans(matrix)
        codes = _row_codes(matrix, low, spans)
        kinds = distinct(codes)
        # Few distinct rows (dtypes and dim orders): a binary search in them is cheaper
        # than sorting the rows with their indices.
        inverse: Array = np.searchsorted(kinds, codes)
        return _decode_rows(kinds, low, spans), inverse
    order, keep = _distinct_row_order(matrix)
    inverse = np.empty(len(matrix), np.int64)
    inverse[order] = np.cumsum(keep) - 1
    rows: Array = matrix[order][keep]
    return rows, inverse


def _decode_rows(codes: Array, low: Array, spans: Array) -> Array:
    """The rows whose codes (`_row_codes`) are `codes`, decoded last column first."""
    rows = np.empty((len(codes), len(spans)), np.int64)
    for column in reversed(range(len(spans))):
        codes, rows[:, column] = np.divmod(codes, spans[column])
        rows[:, column] += low[column]
    return rows


def _distinct_row_order(matrix: Array) -> tuple[Array, NDArray[np.bool_]]:
    """Rows sorted (their order) and which of the sorted rows are the first of their kind."""
    order = np.lexsort(matrix.T[::-1])
    ordered = matrix[order]
    keep = np.ones(len(matrix), bool)
    keep[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return order, keep


def _spans(matrix: Array) -> tuple[Array, Array]:
    low = matrix.min(axis=0) if len(matrix) else np.zeros(matrix.shape[1], np.int64)
    high = matrix.max(axis=0) if len(matrix) else low
    return low, high - low + 1


def _fits_one_code(matrix: Array) -> bool:
    _, spans = _spans(matrix)
    total = 1
    for span in spans.tolist():
        total *= span
    return total < 1 << 62


def _row_codes(matrix: Array, low: Array, spans: Array) -> Array:
    """One integer per row, equal for equal rows (mixed radix over the column ranges)."""
    codes = np.zeros(len(matrix), np.int64)
    for column in range(matrix.shape[1]):
        codes = codes * spans[column] + (matrix[:, column] - low[column])
    return codes


def _aligned(positions: Array, width: int) -> bool:
    """Whether every position is a multiple of `width` (a power of two)."""
    return not len(positions) or not int(np.bitwise_or.reduce(positions)) & (width - 1)
