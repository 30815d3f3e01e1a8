from __future__ import annotations

import platform
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.machine import elf_machine, host_machine, runs_here


def elf_header(machine: int, little: bool = True) -> bytes:
    order = "little" if little else "big"
    return b"\x7fELF" + bytes([2, 1 if little else 2]) + bytes(12) + machine.to_bytes(2, order)


@pytest.mark.parametrize(
    ("code", "little", "name"),
    [(62, True, "x86_64"), (183, True, "aarch64"), (40, True, "arm"), (21, False, "ppc64")],
)
def test_machine_of_an_elf_header(tmp_path: Path, code: int, little: bool, name: str) -> None:
    (tmp_path / "runner").write_bytes(elf_header(code, little) + bytes(100))
    assert elf_machine(tmp_path / "runner") == name


def test_this_interpreter_runs_here() -> None:
    import sys

    assert runs_here(elf_machine(Path(sys.executable).resolve()))
    assert host_machine() in (platform.machine(), "x86_64", "aarch64")


def test_not_an_elf_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "runner").write_text("#!/bin/sh\n")
    with pytest.raises(InputError, match="is not an ELF file"):
        elf_machine(tmp_path / "runner")
