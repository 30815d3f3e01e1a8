"""The work cap of reading one program: elements read, bounded in proportion to its size.

A well-formed program stores every element once, so only tables shared many times over
(hundreds of plans pointing at one plan) or overlapping vectors can exceed the cap, and
they end in one error instead of minutes. Both readers of kernel calls (`codegen.pte.native`
and `codegen.pte.batch`) and the reader's own loops count against the same `Work`.
"""

from __future__ import annotations

from selective_build.codegen.pte.table import FlatbufferError

# Elements read per byte of flatbuffer, plus a fixed allowance so that small programs with
# many methods never meet the cap.
WORK_PER_BYTE = 4
WORK_ALLOWANCE = 1 << 20


class Work:
    """Elements read so far and the most a flatbuffer of `size` bytes may ask for."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.done = 0
        self.budget = WORK_PER_BYTE * size + WORK_ALLOWANCE

    def charge(self, count: int, what: str) -> None:
        self.done += count
        if self.done > self.budget:
            raise FlatbufferError(
                f"reading {what} takes more than {self.budget:,} steps for a "
                f"{self.size:,}-byte flatbuffer (tables or vectors shared many times over)"
            )
