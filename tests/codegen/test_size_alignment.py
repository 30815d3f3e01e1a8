from __future__ import annotations

from selective_build.codegen.size.alignment import FLAG, alignment_note, segment_padding
from selective_build.codegen.size.elf import Segment


def test_padding_is_the_gaps_between_loadable_segments() -> None:
    segments = [
        Segment(executable=False, offset=65536 + 1000, file_size=500, alignment=65536),
        Segment(executable=True, offset=0, file_size=1000, alignment=65536),
    ]
    assert segment_padding(segments) == 65536


def test_large_pages_dominating_the_file_name_the_flag() -> None:
    segments = [
        Segment(executable=True, offset=0, file_size=19_000, alignment=65536),
        Segment(executable=False, offset=67_064, file_size=752, alignment=65536),
    ]
    note = alignment_note(segments, 67_816)
    assert note is not None and FLAG in note and "48,064 B of the 67,816 B file (71%)" in note


def test_no_note_for_small_pages_or_little_padding() -> None:
    small = [
        Segment(executable=True, offset=0, file_size=1000, alignment=4096),
        Segment(executable=False, offset=4096, file_size=100, alignment=4096),
    ]
    assert alignment_note(small, 4196) is None
    big = [
        Segment(executable=True, offset=0, file_size=200_000, alignment=65536),
        Segment(executable=False, offset=201_000, file_size=100, alignment=65536),
    ]
    assert alignment_note(big, 201_100) is None
