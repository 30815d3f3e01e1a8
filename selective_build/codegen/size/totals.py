"""Measuring a linked runner from its ELF sections (pyelftools, not scraped tool output).

Sections are counted the way `size` (Berkeley format) counts them: allocated and
executable or read-only -> text, allocated and writable with file contents -> data,
allocated without file contents (NOBITS) -> bss.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.elf import SHF_WRITE, Section, sections_of


@dataclass(frozen=True)
class SizeReport:
    text: int
    data: int
    bss: int
    file: int
    registry_slots: int
    kernels: int
    operators: int
    budget: int | None

    def totals(self) -> dict[str, int]:
        """The measures of the whole file by name (codegen.size_buckets.TOTALS)."""
        return {"file": self.file, "text": self.text, "data": self.data, "bss": self.bss}


def berkeley_sizes(sections: Iterable[Section]) -> tuple[int, int, int]:
    """(text, data, bss) of these sections, counted as `size` counts them."""
    text = data = bss = 0
    for section in sections:
        if not section.allocated:
            continue
        if not section.in_file:
            bss += section.size
        elif section.flags & SHF_WRITE:
            data += section.size
        else:
            text += section.size
    return text, data, bss


_AR_MAGIC = b"!<arch>\n"
_AR_HEADER = 60


@dataclass(frozen=True)
class LibraryFigures:
    """The target's static library: text, data and bss summed over its objects."""

    text: int
    data: int
    bss: int
    objects: int
    file: int


def archive_sizes(path: Path) -> LibraryFigures:
    """text, data, bss summed over the objects of a static library, and its file size.

    An upper bound of what linking it costs: the app's linker drops the sections it does
    not reach (the library is built with function and data sections).
    """
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None
    if not data.startswith(_AR_MAGIC):
        raise InputError(path, "not a static library (no !<arch> magic)")
    totals = LibraryFigures(text=0, data=0, bss=0, objects=0, file=len(data))
    offset = len(_AR_MAGIC)
    while offset + _AR_HEADER <= len(data):
        header = data[offset : offset + _AR_HEADER]
        name, size_field = header[:16].strip(), header[48:58].strip() or b"0"
        if not size_field.isdigit():
            raise InputError(path, f"damaged member header at byte {offset}")
        size = int(size_field)
        member = data[offset + _AR_HEADER : offset + _AR_HEADER + size]
        # "/" is the symbol index and "//" the long-name table; the rest are objects.
        if name not in (b"/", b"//"):
            try:
                text, writable, bss = berkeley_sizes(sections_of(ELFFile(io.BytesIO(member))))
            except ELFError as error:
                raise InputError(path, f"member {name.decode(errors='replace')}: {error}") from None
            totals = replace(
                totals,
                text=totals.text + text,
                data=totals.data + writable,
                bss=totals.bss + bss,
                objects=totals.objects + 1,
            )
        offset += _AR_HEADER + size + size % 2  # members are 2-byte aligned
    return totals
