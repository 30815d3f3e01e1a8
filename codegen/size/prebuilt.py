"""The prebuilt part of a target on a runtime that ships libraries (ExecuTorch's): what the
runner loads that no selection trims, shown as its own bucket, apart from what the target
adds to an app; and the non-selective alternative, the all-operators kernel library an app
would link instead of the selected kernels.

What the target adds is the runner's own code and data less its command line and what no
object names (the runner's buckets but `runner`, `libc`, `unnamed`, `overhead`): the
selected kernels, the helpers they share, their registration, the adapter and the few of our
runtime's sources they call. It is compared with the alternative's code and data (text and
data as `size` counts them), the like of what an app would carry without selective build.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.size.elf import read_sections
from codegen.size.totals import berkeley_sizes
from codegen.size_buckets import OVERHEAD, TOOLCHAIN, UNNAMED

# The runner's buckets that an app linking the target's library does not take from it.
_NOT_ADDED = frozenset({"runner", TOOLCHAIN, UNNAMED, OVERHEAD})


@dataclass(frozen=True)
class PrebuiltLibrary:
    name: str
    file: int
    text: int
    data: int
    bss: int

    @property
    def code_and_data(self) -> int:
        return self.text + self.data


@dataclass(frozen=True)
class PrebuiltFigures:
    libraries: tuple[PrebuiltLibrary, ...]  # what the runner loads, in link order
    added: int  # the target's own code and data in the runner (module docstring)
    alternative: PrebuiltLibrary | None  # the non-selective kernel library

    @property
    def file(self) -> int:
        return sum(library.file for library in self.libraries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "libraries": [_library_dict(library) for library in self.libraries],
            "added": self.added,
            "alternative": None if self.alternative is None else _library_dict(self.alternative),
        }

    @staticmethod
    def from_dict(raw: Mapping[str, Any]) -> PrebuiltFigures:
        alternative = raw["alternative"]
        return PrebuiltFigures(
            tuple(_library(item) for item in raw["libraries"]),
            int(raw["added"]),
            None if alternative is None else _library(alternative),
        )


def measure_prebuilt(
    libraries: Sequence[Path], alternative: Path | None, buckets: Mapping[str, int]
) -> PrebuiltFigures:
    """The figures of `libraries` and `alternative`, and what the target adds (from the
    runner's buckets: name -> bytes)."""
    added = sum(size for name, size in buckets.items() if name not in _NOT_ADDED)
    return PrebuiltFigures(
        tuple(_measure(path) for path in libraries),
        added,
        None if alternative is None else _measure(alternative),
    )


def prebuilt_markdown(figures: PrebuiltFigures) -> str:
    """size.md's section on the prebuilt part and the non-selective alternative."""
    rows = "".join(
        f"| {library.name} | {library.file:,} | {library.code_and_data:,} |\n"
        for library in figures.libraries
    )
    text = (
        "\n## Prebuilt libraries (not selective)\n\n"
        "What the runner loads from ExecuTorch's install: no selection trims them, and the "
        "figures above leave them out.\n\n"
        "| library | file bytes | text + data |\n|---|---:|---:|\n"
        f"{rows}| **total** | **{figures.file:,}** | |\n"
        f"\nWhat this target adds to an app beside them (its kernels, their registration, the"
        f" adapter): **{figures.added:,} B** of code and data.\n"
    )
    alternative = figures.alternative
    if alternative is not None:
        ratio = figures.added / alternative.code_and_data if alternative.code_and_data else 0.0
        text += (
            f"Without selective build the app would link {alternative.name} instead:"
            f" {alternative.code_and_data:,} B of code and data ({alternative.file:,} B file);"
            f" this target's kernels are {ratio:.2%} of that.\n"
        )
    return text


def _measure(path: Path) -> PrebuiltLibrary:
    text, data, bss = berkeley_sizes(read_sections(path))
    return PrebuiltLibrary(path.name, path.stat().st_size, text, data, bss)


def _library_dict(library: PrebuiltLibrary) -> dict[str, Any]:
    return {
        "name": library.name,
        "file": library.file,
        "text": library.text,
        "data": library.data,
        "bss": library.bss,
    }


def _library(raw: Mapping[str, Any]) -> PrebuiltLibrary:
    return PrebuiltLibrary(
        str(raw["name"]), int(raw["file"]), int(raw["text"]), int(raw["data"]), int(raw["bss"])
    )
