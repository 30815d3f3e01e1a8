"""Every byte of the stripped runner in one bucket: runtime parts, kernels, the rest.

Note [Attribution from ELF alone]
The unstripped runner's symbol table gives each function and variable its address, size
and section; each object file's own symbol table says which object defined the name (a
local symbol also carries the source file of the STT_FILE entry before it). Objects map to
buckets by their source path. A name several kernel objects define (an inline helper or
template they share) goes to "kernels:shared"; one defined by the runtime and by kernels
goes to the first in link order, the copy the linker keeps. Names no object of ours
defines come from the toolchain's startup files and static libraries ("libc"). Bytes of
code and data sections that no symbol covers (string literals, alignment between
functions) are "unnamed"; everything else of the file (ELF and program headers, dynamic
linking tables, PLT/GOT, unwind tables, padding between segments) is "overhead". So the
buckets always sum to the file's size. Alloc sections are the same in the stripped and
unstripped files (strip removes only non-alloc sections), so addresses carry over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.size.dtypes import template_dtypes
from selective_build.codegen.size.elf import SHF_EXECINSTR, ObjectSymbols, Section, Symbol
from selective_build.codegen.size_buckets import (
    KERNEL_PREFIX,
    OVERHEAD,
    SHARED_KERNELS,
    TOOLCHAIN,
    UNNAMED,
    kernel_bucket,
)

_CONTENT_SECTIONS = (".text", ".rodata", ".data", ".tdata")


def bucket_of_source(
    source: Path, runtime_bucket: str | None, kernel_libraries: Mapping[Path, str]
) -> str:
    """The bucket of an object compiled from `source`: a kernel's by its library (kernel
    sources: source -> library), else the runtime's for its own objects (Note [Target
    runtime], codegen/plan/runtime.py), else the runtime core's."""
    if source in kernel_libraries:
        return kernel_bucket(kernel_libraries[source], source)
    return runtime_bucket or "core"


@dataclass(frozen=True)
class LinkedObject:
    """One object of the link, in link order."""

    bucket: str
    source_name: str  # the source's file name, as STT_FILE records it
    symbols: ObjectSymbols


@dataclass(frozen=True)
class Bucket:
    name: str
    bytes: int  # bytes of the stripped runner file
    code: int  # of which in executable sections
    bss: int  # zero-initialised memory (no file bytes)
    # Kernel buckets: bytes of instantiations for exactly one dtype, by dtype name.
    dtypes: Mapping[str, int] = field(default_factory=dict)
    top_symbols: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Attribution:
    file: int
    buckets: tuple[Bucket, ...]  # largest first, then by name

    def bucket(self, name: str) -> Bucket | None:
        return next((b for b in self.buckets if b.name == name), None)

    def bytes_of(self, name: str) -> int:
        """A bucket's bytes; `kernels` sums every kernel bucket and the shared helpers."""
        if name == "kernels":
            return sum(b.bytes for b in self.buckets if _is_kernel(b.name))
        found = self.bucket(name)
        return 0 if found is None else found.bytes


def _is_kernel(name: str) -> bool:
    return name.startswith(KERNEL_PREFIX) or name == SHARED_KERNELS


class _Tally:
    def __init__(self) -> None:
        self.bytes: dict[str, int] = {}
        self.code: dict[str, int] = {}
        self.bss: dict[str, int] = {}
        self.dtypes: dict[str, dict[str, int]] = {}
        self.symbols: dict[str, list[tuple[str, int]]] = {}

    def add(self, bucket: str, size: int, *, code: bool = False, bss: bool = False) -> None:
        target = self.bss if bss else self.bytes
        target[bucket] = target.get(bucket, 0) + size
        if code:
            self.code[bucket] = self.code.get(bucket, 0) + size


def attribute(
    file_size: int,
    sections: Sequence[Section],
    symbols: Sequence[Symbol],
    objects: Sequence[LinkedObject],
) -> Attribution:
    """Buckets of the stripped file (`file_size`, `sections`) from the unstripped `symbols`."""
    owner = _Owners(objects)
    tally = _Tally()
    by_section: dict[str, list[Symbol]] = {}
    for symbol in symbols:
        by_section.setdefault(symbol.section, []).append(symbol)
    for section in sections:
        if not section.allocated:
            continue
        counted = 0
        covered = section.address
        end = section.address + section.size
        for symbol in sorted(by_section.get(section.name, ()), key=lambda s: (s.address, -s.size)):
            start = max(symbol.address, covered)
            stop = min(symbol.address + symbol.size, end)
            if stop <= start:
                continue  # an alias of bytes already counted
            size, covered = stop - start, stop
            bucket = owner.bucket_of(symbol)
            if not section.in_file:
                tally.add(bucket, size, bss=True)
                continue
            counted += size
            tally.add(bucket, size, code=bool(section.flags & SHF_EXECINSTR))
            tally.symbols.setdefault(bucket, []).append((symbol.name, size))
            if bucket.startswith(KERNEL_PREFIX):
                dtypes = template_dtypes(symbol.name)
                if len(dtypes) == 1:
                    (dtype,) = dtypes
                    per = tally.dtypes.setdefault(bucket, {})
                    per[dtype.name] = per.get(dtype.name, 0) + size
        if section.in_file:
            rest = section.size - counted
            if section.name.startswith(_CONTENT_SECTIONS):
                tally.add(UNNAMED, rest, code=bool(section.flags & SHF_EXECINSTR))
            elif section.name in (".init", ".fini"):
                tally.add(TOOLCHAIN, rest, code=True)
    tally.bytes[OVERHEAD] = file_size - sum(tally.bytes.values())
    if tally.bytes[OVERHEAD] < 0:
        raise ValueError("symbols cover more bytes than the file has: mismatched runners")
    names = set(tally.bytes) | set(tally.bss)
    buckets = [
        Bucket(
            name=name,
            bytes=tally.bytes.get(name, 0),
            code=tally.code.get(name, 0),
            bss=tally.bss.get(name, 0),
            dtypes=dict(sorted(tally.dtypes.get(name, {}).items())),
            top_symbols=tuple(
                sorted(tally.symbols.get(name, []), key=lambda item: (-item[1], item[0]))[:5]
            ),
        )
        for name in names
    ]
    buckets.sort(key=lambda b: (-b.bytes, b.name))
    return Attribution(file_size, tuple(buckets))


class _Owners:
    """Which bucket defined a symbol (Note [Attribution from ELF alone])."""

    def __init__(self, objects: Sequence[LinkedObject]) -> None:
        self.globals: dict[str, list[str]] = {}
        self.locals: dict[tuple[str, str], str] = {}
        # A source's first object with locals: the bucket of the locals the compiler made.
        self.first_bucket: dict[str, str] = {}
        for obj in objects:
            for name in obj.symbols.globals:
                self.globals.setdefault(name, []).append(obj.bucket)
            for name in obj.symbols.locals:
                self.locals.setdefault((obj.source_name, name), obj.bucket)
                self.first_bucket.setdefault(obj.source_name, obj.bucket)
        self.sources = {obj.source_name for obj in objects}

    def bucket_of(self, symbol: Symbol) -> str:
        if symbol.local:
            if symbol.source_file not in self.sources:
                return TOOLCHAIN
            found = self.locals.get((symbol.source_file or "", symbol.name))
            if found is not None:
                return found
            # A local the compiler made (`.isra.0`, `.constprop`) is still that file's.
            return self.first_bucket.get(symbol.source_file or "", TOOLCHAIN)
        definers = self.globals.get(symbol.name)
        if not definers:
            return TOOLCHAIN
        if len(set(definers)) > 1 and all(d.startswith(KERNEL_PREFIX) for d in definers):
            return SHARED_KERNELS
        return definers[0]
