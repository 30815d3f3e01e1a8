"""The runtime as a static library: its objects' sizes, read from the archive."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.elf import read_sections
from selective_build.codegen.size.totals import archive_sizes, berkeley_sizes


def compile_object(directory: Path, name: str, code: str) -> Path:
    source = directory / f"{name}.cpp"
    source.write_text(code)
    output = directory / f"{name}.o"
    subprocess.run(["c++", "-Os", "-c", str(source), "-o", str(output)], check=True)
    return output


def test_archive_sums_its_objects(tmp_path: Path) -> None:
    objects = [
        compile_object(tmp_path, "a", "int table[64] = {1}; int a(int x) { return x + table[x]; }"),
        compile_object(tmp_path, "b", "static char buffer[128]; char* b() { return buffer; }"),
    ]
    library = tmp_path / "lib.a"
    subprocess.run(["ar", "rcsD", str(library), *map(str, objects)], check=True)
    sizes = archive_sizes(library)
    expected = [
        sum(column)
        for column in zip(*(berkeley_sizes(read_sections(o)) for o in objects), strict=True)
    ]
    assert [sizes.text, sizes.data, sizes.bss] == expected
    assert sizes.objects == 2 and sizes.file == library.stat().st_size
    assert sizes.data >= 256 and sizes.bss >= 128


def test_not_an_archive(tmp_path: Path) -> None:
    path = tmp_path / "lib.a"
    path.write_bytes(b"not an archive")
    with pytest.raises(InputError, match="not a static library"):
        archive_sizes(path)


def test_a_damaged_archive_is_one_input_error(tmp_path: Path) -> None:
    library = tmp_path / "lib.a"
    obj = compile_object(tmp_path, "a", "int a() { return 1; }")
    subprocess.run(["ar", "rcsD", str(library), str(obj)], check=True)
    data = bytearray(library.read_bytes())
    data[8 + 48 : 8 + 58] = b"12x4      "  # the first member's size field
    library.write_bytes(bytes(data))
    with pytest.raises(InputError, match="damaged member header at byte 8"):
        archive_sizes(library)
    with pytest.raises(InputError, match="cannot read"):
        archive_sizes(tmp_path / "missing.a")
