"""The prebuilt part of a target on a runtime that ships libraries (ExecuTorch's), as
size.md shows it: what the runner loads that no selection trims (size.json `prebuilt`),
apart from what the target adds to an app; and the non-selective alternative, the
all-operators kernel library an app would link instead of the selected kernels
(size.json `non_selective`).

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

from selective_build.codegen.size.elf import read_sections
from selective_build.codegen.size.fields import integer, text
from selective_build.codegen.size.totals import berkeley_sizes
from selective_build.codegen.size_buckets import OVERHEAD, TOOLCHAIN, UNNAMED

# The runner's buckets that an app linking the target's library does not take from it.
_NOT_ADDED = frozenset({"runner", TOOLCHAIN, UNNAMED, OVERHEAD})


@dataclass(frozen=True)
class NonSelective:
    """The library an app would link without selective build, and what the target adds."""

    name: str  # its file name
    file: int  # bytes
    code_and_data: int  # its text + data
    added: int  # the target's own code and data in the runner (module docstring)

    @staticmethod
    def from_dict(raw: Mapping[str, object]) -> NonSelective:
        return NonSelective(
            text(raw["name"]),
            integer(raw["file"]),
            integer(raw["code_and_data"]),
            integer(raw["added"]),
        )


def non_selective(library: Path, buckets: Mapping[str, int]) -> NonSelective:
    """`library`'s figures and what the target adds (from the runner's buckets: name ->
    bytes)."""
    code, data, _ = berkeley_sizes(read_sections(library))
    added = sum(size for name, size in buckets.items() if name not in _NOT_ADDED)
    return NonSelective(library.name, library.stat().st_size, code + data, added)


def prebuilt_markdown(parts: Sequence[tuple[str, int]], alternative: NonSelective | None) -> str:
    """size.md's section on the prebuilt libraries (name, bytes) and the alternative."""
    rows = "".join(f"| {name} | {size:,} |\n" for name, size in parts)
    total = sum(size for _, size in parts)
    section = (
        "\n## Prebuilt libraries (not selective)\n\n"
        "What the runner loads from ExecuTorch's install: no selection trims them, and the "
        "figures above leave them out.\n\n"
        f"| library | bytes |\n|---|---:|\n{rows}| **total** | **{total:,}** |\n"
    )
    if alternative is not None:
        share = alternative.added / alternative.code_and_data if alternative.code_and_data else 0
        section += (
            f"\nWhat this target adds to an app beside them (its kernels, their registration,"
            f" the adapter): **{alternative.added:,} B** of code and data. Without selective"
            f" build the app would link {alternative.name} instead:"
            f" {alternative.code_and_data:,} B of code and data ({alternative.file:,} B file);"
            f" this target's kernels are {share:.2%} of that.\n"
        )
    return section
