"""What size analysis reads from ELF files, through pyelftools (never from tool output).

A linked runner gives its sections and its symbol table (address, size, section, and for
local symbols the source file named by the STT_FILE entry before them); an object file
gives the names it defines. pyelftools is imported inside the functions: doit loads this
module's importers on every run, and a no-op build must not pay for the import.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from selective_build.codegen.errors import InputError

if TYPE_CHECKING:
    from elftools.elf.elffile import ELFFile

SHF_WRITE = 0x1
SHF_WRITE = 0x1
SHF_ALLOC = 0x2
SHF_EXECINSTR = 0x4
PF_X = 0x1


@dataclass(frozen=True)
class Section:
    name: str
    kind: str  # sh_type as pyelftools spells it: SHT_PROGBITS, SHT_NOBITS, ...
    flags: int
    address: int
    offset: int
    size: int

    @property
    def allocated(self) -> bool:
        return bool(self.flags & SHF_ALLOC)

    @property
    def in_file(self) -> bool:
        """Occupies bytes of the file (NOBITS sections such as .bss do not)."""
        return self.kind not in ("SHT_NOBITS", "SHT_NULL")


@dataclass(frozen=True)
class Symbol:
    """A function or variable of a linked file, with the bytes it occupies."""

    name: str
    address: int
    size: int
    section: str
    local: bool
    source_file: str | None  # for local symbols: the STT_FILE name before them


def read_sections(path: Path) -> tuple[Section, ...]:
    with _elf(path) as elf:
        return sections_of(elf)


def sections_of(elf: ELFFile) -> tuple[Section, ...]:
    """The sections of an open pyelftools ELFFile."""
    return tuple(
        Section(
            name=section.name,
            kind=section["sh_type"],
            flags=section["sh_flags"],
            address=section["sh_addr"],
            offset=section["sh_offset"],
            size=section["sh_size"],
        )
        for section in elf.iter_sections()
    )


@dataclass(frozen=True)
class Segment:
    """A loadable segment (PT_LOAD): where its bytes are in the file."""

    executable: bool
    offset: int
    file_size: int
    alignment: int  # the page size the linker laid the file out with


def read_segments(path: Path) -> tuple[Segment, ...]:
    with _elf(path) as elf:
        return tuple(
            Segment(
                executable=bool(segment["p_flags"] & PF_X),
                offset=segment["p_offset"],
                file_size=segment["p_filesz"],
                alignment=segment["p_align"],
            )
            for segment in elf.iter_segments()
            if segment["p_type"] == "PT_LOAD"
        )


def read_symbols(path: Path) -> tuple[Symbol, ...]:
    """The sized functions and variables of the linked file at `path` (needs its symtab)."""
    from elftools.elf.sections import SymbolTableSection

    symbols: list[Symbol] = []
    with _elf(path) as elf:
        table = elf.get_section_by_name(".symtab")
        if not isinstance(table, SymbolTableSection):
            raise InputError(path, "has no symbol table (attribution needs the unstripped file)")
        names = [section.name for section in elf.iter_sections()]
        source_file: str | None = None
        for symbol in table.iter_symbols():
            info = symbol["st_info"]
            if info["type"] == "STT_FILE":
                source_file = symbol.name or None
                continue
            index = symbol["st_shndx"]
            if not isinstance(index, int) or symbol["st_size"] == 0:
                continue  # undefined, absolute or common; or a label without bytes
            if info["type"] not in ("STT_FUNC", "STT_OBJECT", "STT_TLS"):
                continue
            local = info["bind"] == "STB_LOCAL"
            symbols.append(
                Symbol(
                    name=symbol.name,
                    address=symbol["st_value"],
                    size=symbol["st_size"],
                    section=names[index],
                    local=local,
                    source_file=source_file if local else None,
                )
            )
    return tuple(symbols)


@dataclass(frozen=True)
class ObjectSymbols:
    """The names an object file defines: global (incl. weak) and local ones apart."""

    globals: frozenset[str]
    locals: frozenset[str]


def object_symbols(path: Path) -> ObjectSymbols:
    from elftools.elf.sections import SymbolTableSection

    defined: dict[bool, set[str]] = {True: set(), False: set()}
    with _elf(path) as elf:
        table = elf.get_section_by_name(".symtab")
        if not isinstance(table, SymbolTableSection):
            raise InputError(path, "has no symbol table")
        for symbol in table.iter_symbols():
            info = symbol["st_info"]
            if symbol["st_shndx"] == "SHN_UNDEF" or not symbol.name:
                continue
            if info["type"] in ("STT_FUNC", "STT_OBJECT", "STT_TLS", "STT_NOTYPE"):
                defined[info["bind"] == "STB_LOCAL"].add(symbol.name)
    return ObjectSymbols(frozenset(defined[False]), frozenset(defined[True]))


@contextlib.contextmanager
def _elf(path: Path) -> Iterator[ELFFile]:
    """The ELF file at `path`, open; a file that cannot be read as ELF is one InputError."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        with path.open("rb") as file:
            yield ELFFile(file)
    except (OSError, ELFError) as error:
        raise InputError(path, f"cannot read as ELF: {error}") from None
