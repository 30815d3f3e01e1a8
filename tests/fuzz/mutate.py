"""Mutations of `.pte` programs and `.npy` arrays, chosen by a seeded `random.Random`.

Programs: structure-aware lies from `tests/fuzz/layout.py` (several vector entries pointed
at one shared sub-table, offsets, vtables, union tags, vector lengths, scalars such as
sizes and indices, the extended header's sizes and offsets), plus truncation, splices of
two programs and byte flips. Arrays: header lies (dtype, shape, order, header length,
version), truncation, extra bytes and flips. Each mutation returns the new bytes and a
short description, so a finding says what was done.
"""

from __future__ import annotations

import ast
import functools
import random
import struct
from collections.abc import Callable, Sequence

from tests.fuzz.layout import Layout, walk

# Values that sit on the edges the readers check: signs, widths, powers of two.
_INTERESTING = (
    0,
    1,
    2,
    3,
    7,
    8,
    0x7F,
    0x80,
    0xFF,
    0x100,
    0x7FFF,
    0x8000,
    0xFFFF,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFE,
    0xFFFF_FFFF,
)
_INTERESTING_64 = (*_INTERESTING, 1 << 32, 1 << 40, 0x7FFF_FFFF_FFFF_FFFF, 1 << 63, (1 << 64) - 1)


def _put(data: bytearray, position: int, size: int, value: int) -> None:
    data[position : position + size] = (value % (1 << (8 * size))).to_bytes(size, "little")


def _value(rng: random.Random, size: int, around: int, file_size: int) -> int:
    """A value for a field of `size` bytes now holding `around`."""
    choice = rng.randrange(5)
    if choice == 0:
        return rng.choice(_INTERESTING_64 if size == 8 else _INTERESTING)
    if choice == 1:
        return around + rng.choice((-1, 1, -4, 4, -8, 8, 16, -16))
    if choice == 2:
        return -around
    if choice == 3:
        return rng.choice((file_size, file_size - 1, file_size + 1, file_size // 2))
    return rng.getrandbits(8 * size)


Mutator = Callable[[random.Random, bytearray, Layout], str | None]


def _share(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    """Point several entries of one vector of tables at one of its tables."""
    vectors = [v for v in layout.table_vectors if len(v) >= 2]
    if not vectors:
        return None
    entries = rng.choice(vectors)
    keep = rng.choice(entries)
    target = keep + struct.unpack_from("<I", data, keep)[0]
    chosen = entries if rng.random() < 0.5 else rng.sample(entries, rng.randint(2, len(entries)))
    for at in chosen:
        _put(data, at, 4, target - at)
    return f"{len(chosen)} entries of the vector at {entries[0] - 4} share the table at {target}"


def _offset_lie(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    if not layout.offsets:
        return None
    at = rng.choice(layout.offsets)
    old = struct.unpack_from("<I", data, at)[0]
    if rng.random() < 0.4 and layout.tables:
        # To another part of the program: a table of another type, a vtable, a vector.
        target = rng.choice(
            [t.position for t in layout.tables]
            + [t.vtable for t in layout.tables]
            + [v.position for v in layout.vectors]
        )
        value = target - at
    else:
        value = _value(rng, 4, old, len(data))
    _put(data, at, 4, value)
    return f"offset at {at}: {old} -> {value % (1 << 32)}"


def _vtable_lie(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    if not layout.tables:
        return None
    table = rng.choice(layout.tables)
    vsize = struct.unpack_from("<H", data, table.vtable)[0]
    choice = rng.randrange(3)
    if choice == 0:  # the table's soffset to its vtable
        value = _value(rng, 4, table.position - table.vtable, len(data))
        _put(data, table.position, 4, value)
        return f"{table.type} at {table.position}: vtable soffset -> {value % (1 << 32)}"
    if choice == 1 or vsize < 6:  # the vtable's own size or the table's size (no field)
        at = table.vtable + 2 * rng.randrange(2)
    else:  # one field's offset within the table
        at = table.vtable + 4 + 2 * rng.randrange((vsize - 4) // 2)
    old = struct.unpack_from("<H", data, at)[0]
    value = _value(rng, 2, old, len(data))
    _put(data, at, 2, value)
    return f"{table.type} at {table.position}: vtable entry at {at}: {old} -> {value % 65536}"


def _union_lie(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    if not layout.union_tags:
        return None
    at = rng.choice(layout.union_tags)
    old = data[at]
    data[at] = rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x7F, 0xFF))
    return f"union tag at {at}: {old} -> {data[at]}"


def _length_lie(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    if not layout.vectors:
        return None
    vector = rng.choice(layout.vectors)
    value = _value(rng, 4, vector.length, len(data))
    _put(data, vector.position, 4, value)
    return f"vector at {vector.position}: length {vector.length} -> {value % (1 << 32)}"


def _scalar_lie(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    if not layout.scalars:
        return None
    at, size = rng.choice(layout.scalars)
    old = int.from_bytes(data[at : at + size], "little")
    value = _value(rng, size, old, len(data))
    _put(data, at, size, value)
    return f"scalar at {at} ({size} B): {old} -> {value % (1 << (8 * size))}"


def _header_lie(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    """The extended header: its length, the program size, the segment base and size."""
    if layout.header is None:
        return None
    field_at, size = rng.choice(((12, 4), (16, 8), (24, 8), (32, 8)))
    old = int.from_bytes(data[field_at : field_at + size], "little")
    value = _value(rng, size, old, len(data))
    _put(data, field_at, size, value)
    return f"extended header at {field_at}: {old} -> {value % (1 << (8 * size))}"


def _flip(rng: random.Random, data: bytearray, layout: Layout) -> str | None:
    if not data:
        return None
    count = rng.choice((1, 1, 2, 4, 8))
    for _ in range(count):
        at = rng.randrange(len(data))
        data[at] = rng.choice((data[at] ^ (1 << rng.randrange(8)), rng.getrandbits(8), 0, 0xFF))
    return f"{count} random bytes changed"


STRUCTURED: tuple[Mutator, ...] = (
    _share,
    _offset_lie,
    _vtable_lie,
    _union_lie,
    _length_lie,
    _scalar_lie,
    _header_lie,
    _flip,
)


def mutate_program(
    rng: random.Random, program: bytes, others: Sequence[bytes]
) -> tuple[bytes, str]:
    """One to three mutations of `program`; `others` are programs to splice with."""
    kind = rng.random()
    if kind < 0.06:
        length = rng.randrange(len(program))
        return program[:length], f"truncated to {length} B"
    if kind < 0.12 and others:
        other = rng.choice(others)
        cut = rng.randrange(min(len(program), len(other)) + 1)
        if rng.random() < 0.5:
            return program[:cut] + other[cut:], f"spliced at {cut} with a {len(other)} B program"
        start = rng.randrange(len(other))
        piece = other[start : start + rng.randint(1, 256)]
        return (
            program[:cut] + piece + program[cut + len(piece) :],
            f"{len(piece)} B of another program at {cut}",
        )
    data = bytearray(program)
    done: list[str] = []
    for round_ in range(rng.choice((1, 1, 1, 2, 3))):
        # The first round walks the example itself: the same walk every time (the layout is
        # only read), and nine tenths of the time a runner case took to draw.
        layout = _example_layout(program) if round_ == 0 else walk(bytes(data))
        for _attempt in range(8):
            what = rng.choice(STRUCTURED)(rng, data, layout)
            if what is not None:
                done.append(what)
                break
    return bytes(data), "; ".join(done) or "unchanged"


@functools.lru_cache(maxsize=64)
def _example_layout(program: bytes) -> Layout:
    return walk(program)


# ---- .npy ----

_DESCRS = (
    "|b1",
    "|u1",
    "|i1",
    "<i2",
    "<i4",
    "<i8",
    "<f2",
    "<f4",
    "<f8",
    ">f4",
    "<c8",
    "|O",
    "<U3",
    "",
)


def _npy(header: str, data: bytes, version: int = 1) -> bytes:
    """An .npy file with this header text (padded as numpy pads it)."""
    text = header.encode("latin-1")
    start = 10 if version == 1 else 12
    padding = (-(start + len(text) + 1)) % 64
    text += b" " * padding + b"\n"
    length = len(text).to_bytes(2 if version == 1 else 4, "little")
    return b"\x93NUMPY" + bytes((version, 0)) + length + text + data


def _header_of(array: bytes) -> tuple[dict[str, object], bytes] | None:
    """The header dict and the data of a version 1 .npy, or None."""
    if len(array) < 10 or array[:6] != b"\x93NUMPY":
        return None
    length = int.from_bytes(array[8:10], "little")
    try:
        header = ast.literal_eval(array[10 : 10 + length].decode("latin-1"))
    except (ValueError, SyntaxError):
        return None
    return (header, array[10 + length :]) if isinstance(header, dict) else None


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def mutate_array(rng: random.Random, array: bytes) -> tuple[bytes, str]:
    """One mutation of an .npy file's bytes."""
    parsed = _header_of(array)
    kind = rng.randrange(8)
    if parsed is None or kind == 0:
        data = bytearray(array)
        what = _flip(rng, data, Layout())
        return bytes(data), what or "unchanged"
    header, payload = parsed
    descr = str(header.get("descr", "<f4"))
    order = bool(header.get("fortran_order", False))
    shape = list(header.get("shape", ()))  # type: ignore[call-overload]
    version = 1
    if kind == 1:
        length = rng.randrange(len(array))
        return array[:length], f"truncated to {length} B"
    if kind == 2:
        descr = rng.choice(_DESCRS)
    elif kind == 3:
        order = not order
    elif kind == 4:
        if shape and rng.random() < 0.6:
            i = rng.randrange(len(shape))
            shape[i] = rng.choice((0, -1, 1, shape[i] + 1, 2**31, 2**31 - 1, 2**63, 2**64 + 5))
        else:
            shape = [rng.choice((0, 1, 2, 3, 2**16)) for _ in range(rng.choice((0, 1, 8, 9, 40)))]
    elif kind == 5:
        payload = (
            payload + bytes(rng.randint(1, 64))
            if rng.random() < 0.5
            else payload[: len(payload) // 2]
        )
    elif kind == 6:
        version = rng.choice((2, 3))
    else:
        # A header that lies in its own syntax or length field.
        text = f"{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {_shape_text(shape)}, }}"
        text = rng.choice(
            (text[: rng.randrange(len(text))], text.replace("'", '"'), text + "x" * 100)
        )
        result = bytearray(_npy(text, payload))
        if rng.random() < 0.5:
            _put(result, 8, 2, _value(rng, 2, int.from_bytes(result[8:10], "little"), len(result)))
        return bytes(result), "header text or length lies"
    text = f"{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {_shape_text(shape)}, }}"
    return _npy(
        text, payload, version
    ), f"header {text!r} (version {version}), {len(payload)} B of data"
