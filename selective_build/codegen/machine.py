"""Which processor an ELF file is built for, and whether this machine runs it natively.

A cross toolchain's runner cannot run here; verification then needs the toolchain's
emulator (a command prefix such as `qemu-aarch64 -L /usr/aarch64-linux-gnu`), and without
one it says so instead of trying (exec would fail with "Exec format error").
"""

from __future__ import annotations

import platform
from pathlib import Path

from selective_build.codegen.errors import InputError

# e_machine values (the ELF specification's registry) by the names `uname -m` prints.
_MACHINES = {3: "i686", 8: "mips", 20: "ppc", 21: "ppc64", 40: "arm", 62: "x86_64"}
_MACHINES |= {183: "aarch64", 243: "riscv64", 22: "s390x"}
_ELF_MAGIC = b"\x7fELF"


def elf_machine(path: Path) -> str:
    """The processor `path` is built for, named as `uname -m` names it."""
    try:
        with path.open("rb") as file:
            header = file.read(20)
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None
    if len(header) < 20 or header[:4] != _ELF_MAGIC:
        raise InputError(path, "is not an ELF file")
    code = int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")
    return _MACHINES.get(code, f"ELF machine {code}")


def host_machine() -> str:
    """This machine's processor, as `uname -m` names it."""
    machine = platform.machine()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(machine.lower(), machine)


def runs_here(machine: str) -> bool:
    # An x86_64 machine also runs i686 binaries, but our toolchains never make those
    # without saying so with an emulator; keep the rule exact.
    return machine == host_machine()
