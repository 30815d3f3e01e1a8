"""Measuring a linked runner from its ELF sections (pyelftools, not scraped tool output).

Sections are counted the way `size` (Berkeley format) counts them: allocated and
executable or read-only -> text, allocated and writable with file contents -> data,
allocated without file contents (NOBITS) -> bss.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from codegen.errors import InputError
from codegen.units import format_size

_SHF_WRITE = 0x1
_SHF_ALLOC = 0x2


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

    @property
    def over_budget(self) -> bool:
        return self.budget is not None and self.file > self.budget

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    def to_markdown(self, target: str) -> str:
        budget = "none" if self.budget is None else format_size(self.budget)
        verdict = "OVER BUDGET" if self.over_budget else "within budget"
        return (
            f"# Size of target `{target}`\n\n"
            f"| measure | bytes |\n|---|---:|\n"
            f"| text | {self.text:,} |\n| data | {self.data:,} |\n| bss | {self.bss:,} |\n"
            f"| runner file (stripped) | {self.file:,} |\n\n"
            f"Budget: {budget} ({verdict}). "
            f"{self.operators} operators, {self.kernels} kernels, "
            f"{self.registry_slots} registry slots.\n"
        )


def section_sizes(path: Path) -> tuple[int, int, int]:
    """(text, data, bss) bytes of the ELF file at `path`."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    text = data = bss = 0
    try:
        with path.open("rb") as file:
            for section in ELFFile(file).iter_sections():
                flags = section["sh_flags"]
                if not flags & _SHF_ALLOC:
                    continue
                size = section["sh_size"]
                if section["sh_type"] == "SHT_NOBITS":
                    bss += size
                elif flags & _SHF_WRITE:
                    data += size
                else:
                    text += size
    except (OSError, ELFError) as error:
        raise InputError(path, f"cannot read as ELF: {error}") from None
    return text, data, bss
