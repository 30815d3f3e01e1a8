from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest.cmake_toolchain import VARIABLES, run_probe, toolchain

FILE = Path("cross.cmake")


def variables(**values: str) -> dict[str, str]:
    return {name: values.get(name, "") for name in VARIABLES}


def test_the_file_s_compiler_flags_and_emulator() -> None:
    read = variables(
        CMAKE_CXX_COMPILER="/usr/bin/aarch64-linux-gnu-g++",
        CMAKE_CXX_FLAGS="-march=armv8.2-a -DX='a b'",
        CMAKE_EXE_LINKER_FLAGS="-Wl,-z,max-page-size=4096",
        CMAKE_SYSROOT="/sysroot",
        CMAKE_STRIP="/usr/bin/aarch64-linux-gnu-strip",
        CMAKE_AR="/usr/bin/aarch64-linux-gnu-ar",
        CMAKE_CROSSCOMPILING_EMULATOR="qemu-aarch64;-L;/usr/aarch64-linux-gnu",
    )
    made = toolchain("arm64", FILE, read, {})
    assert made.compiler == "/usr/bin/aarch64-linux-gnu-g++" and made.launcher is None
    assert made.cflags == ("-march=armv8.2-a", "-DX=a b", "--sysroot=/sysroot", "-Os")
    assert made.ldflags == ("-Wl,-z,max-page-size=4096", "--sysroot=/sysroot")
    assert made.emulator == ("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu")
    assert made.strip == "/usr/bin/aarch64-linux-gnu-strip"
    assert made.ar == "/usr/bin/aarch64-linux-gnu-ar"
    assert made.cmake_toolchain_file == FILE


def test_the_table_s_own_keys_win() -> None:
    read = variables(CMAKE_CXX_COMPILER="/usr/bin/g++", CMAKE_CXX_FLAGS="-m64")
    own = {"compiler": "clang++", "cflags": ("-O2",), "emulator": ("run",), "launcher": "ccache"}
    made = toolchain("t", FILE, read, own)
    assert (made.compiler, made.launcher, made.emulator) == ("clang++", "ccache", ("run",))
    assert made.cflags == ("-m64", "-O2")


def test_cmake_reads_a_real_toolchain_file(tmp_path: Path) -> None:
    assert shutil.which("cmake"), "install cmake (.ci/run does)"
    file = tmp_path / "host.cmake"
    file.write_text('set(CMAKE_CXX_FLAGS_INIT "-DFROM_FILE=1")\n')
    read = run_probe(file)
    assert read["CMAKE_CXX_FLAGS"].strip() == "-DFROM_FILE=1"
    assert Path(read["CMAKE_CXX_COMPILER"]).is_absolute()


def test_a_file_cmake_refuses_is_one_line(tmp_path: Path) -> None:
    file = tmp_path / "bad.cmake"
    file.write_text('message(FATAL_ERROR "no such board")\n')
    failed = r"bad.cmake: cmake failed with this toolchain file: no such board$"
    with pytest.raises(InputError, match=failed):
        run_probe(file)
