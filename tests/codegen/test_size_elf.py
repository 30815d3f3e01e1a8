"""Reading ELF files for size analysis: a file that is not ELF is one line naming it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.elf import (
    object_symbols,
    read_sections,
    read_segments,
    read_symbols,
)


@pytest.mark.parametrize("reader", [read_sections, read_segments, read_symbols, object_symbols])
@pytest.mark.parametrize("content", [b"", b"\x7fELF", b"not an object file at all"])
def test_a_file_that_is_not_elf(
    tmp_path: Path, reader: Callable[[Path], object], content: bytes
) -> None:
    path = tmp_path / "runner"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        reader(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: cannot read as ELF: ") and "\n" not in message


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read as ELF: .*No such file"):
        read_segments(tmp_path / "gone")
