"""A flatbuffers builder that writes tables as lists of (kind, slot, value) fields.

The `.pte` writer's lowest layer: slots come from `codegen.pte.slots`, so a table is
written with the numbers the reader checks, and every scalar is stored even when it equals
its default (the runtime's reader does not assume schema defaults).
"""

from __future__ import annotations

from collections.abc import Sequence


class FlatbufferBuilder:
    """Vectors and tables appended to one `flatbuffers.Builder`."""

    def __init__(self) -> None:
        import flatbuffers  # only writing loads it: reading has its own bounded reader

        self.fb = flatbuffers.Builder(1024)

    def vector(self, element: str, items: Sequence[int | float | bool]) -> int:
        fmt = {
            "i": (4, self.fb.PrependInt32),
            "q": (8, self.fb.PrependInt64),
            "Q": (8, self.fb.PrependUint64),
            "B": (1, self.fb.PrependUint8),
            "d": (8, self.fb.PrependFloat64),
            "?": (1, self.fb.PrependBool),
        }
        size, prepend = fmt[element]
        self.fb.StartVector(size, len(items), size)
        for item in reversed(items):
            prepend(item)
        return int(self.fb.EndVector())

    def offsets(self, offsets: Sequence[int]) -> int:
        self.fb.StartVector(4, len(offsets), 4)
        for offset in reversed(offsets):
            self.fb.PrependUOffsetTRelative(offset)
        return int(self.fb.EndVector())

    def table(self, fields: Sequence[tuple[str, int, object]]) -> int:
        """A table from (kind, slot, value) with kind one of u8 i32 u32 i64 u64 f64 bool off."""
        fb = self.fb
        fb.StartObject(max((slot for _, slot, _ in fields), default=-1) + 1)
        prepend = {
            "u8": fb.PrependUint8Slot,
            "i8": fb.PrependInt8Slot,
            "i32": fb.PrependInt32Slot,
            "u32": fb.PrependUint32Slot,
            "i64": fb.PrependInt64Slot,
            "u64": fb.PrependUint64Slot,
            "f64": fb.PrependFloat64Slot,
            "bool": fb.PrependBoolSlot,
            "off": fb.PrependUOffsetTRelativeSlot,
        }
        for kind, slot, value in fields:
            # Force every scalar to be stored: defaults would be omitted otherwise.
            prepend[kind](slot, value, None if kind != "off" else 0)
        return int(fb.EndObject())
