"""Does segment alignment, not code, make up the runner file? And which flag helps.

A linker pads the file so that each loadable segment starts at an offset congruent to its
address modulo the page size it assumes. GNU ld for aarch64 assumes 64 KiB pages, so a
30 KiB runner becomes a ~100 KiB file, mostly zeros; `-z max-page-size=4096` (passed as
`-Wl,-z,max-page-size=4096`) lays it out for 4 KiB pages, which every Linux on aarch64
accepts unless its kernel runs with larger pages.
"""

from __future__ import annotations

from collections.abc import Sequence

from selective_build.codegen.size.elf import Segment

SMALL_PAGE = 4096
FLAG = f"-Wl,-z,max-page-size={SMALL_PAGE}"


def segment_padding(segments: Sequence[Segment]) -> int:
    """Bytes of the file between the end of one loadable segment and the next's start."""
    ordered = sorted(segments, key=lambda segment: segment.offset)
    return sum(
        max(0, later.offset - (earlier.offset + earlier.file_size))
        for earlier, later in zip(ordered, ordered[1:], strict=False)
    )


def alignment_note(segments: Sequence[Segment], file: int) -> str | None:
    """One line when padding is at least a third of the file and pages are larger than
    4 KiB (so a flag removes most of it); None otherwise."""
    padding = segment_padding(segments)
    page = max((segment.alignment for segment in segments), default=0)
    if file <= 0 or page <= SMALL_PAGE or padding * 3 < file:
        return None
    return (
        f"segment alignment: {padding:,} B of the {file:,} B file ({padding / file:.0%}) is "
        f"padding between segments aligned to {page:,} B pages; "
        f"link with `{FLAG}` (toolchain ldflags) to remove most of it"
    )
