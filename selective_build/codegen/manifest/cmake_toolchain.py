"""A manifest toolchain taken from a CMake toolchain file a project already has.

Note [CMake toolchain files]
`[toolchains.<name>] cmake_toolchain_file = "path/to/toolchain.cmake"` builds with what
CMake would build with: a toolchain file is a CMake script (it may compute paths, read the
environment, include other files), so it is not parsed here but run by CMake itself, in
a tiny probe project (PROBE) configured with `-DCMAKE_TOOLCHAIN_FILE=<file>`, which
writes down the variables CMake settled on (one file per variable, no quoting to undo).
From them (`toolchain`):
  - compiler: CMAKE_CXX_COMPILER (the path CMake found), behind
    CMAKE_CXX_COMPILER_LAUNCHER when it names one;
  - cflags: CMAKE_CXX_FLAGS, then --sysroot, --target and --gcc-toolchain for
    CMAKE_SYSROOT, CMAKE_CXX_COMPILER_TARGET and CMAKE_CXX_COMPILER_EXTERNAL_TOOLCHAIN,
    then the table's own `cflags` (default ["-Os"]: a toolchain file holds no build type);
  - ldflags: CMAKE_EXE_LINKER_FLAGS and the same three, then the table's `ldflags`;
  - strip, ar: CMAKE_STRIP, CMAKE_AR; emulator: CMAKE_CROSSCOMPILING_EMULATOR.
A `compiler`, `launcher`, `strip`, `ar` or `emulator` given in the table replaces the
file's. Running CMake costs seconds, so the result is cached by the file's path and
content (tasks/cmake_probe.py); the file is part of what the task definitions are made
from, so editing it is seen by the next build.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest.model import Toolchain, default_toolchain
from selective_build.codegen.stage_file import dump_json

KEY = "cmake_toolchain_file"
# What the manifest parser calls to read a toolchain file: `run_probe`, or a cache of it.
Probe = Callable[[Path], Mapping[str, str]]

# The variables the probe writes down (Note [CMake toolchain files]).
VARIABLES = (
    "CMAKE_CXX_COMPILER",
    "CMAKE_CXX_COMPILER_LAUNCHER",
    "CMAKE_CXX_FLAGS",
    "CMAKE_EXE_LINKER_FLAGS",
    "CMAKE_SYSROOT",
    "CMAKE_CXX_COMPILER_TARGET",
    "CMAKE_CXX_COMPILER_EXTERNAL_TOOLCHAIN",
    "CMAKE_STRIP",
    "CMAKE_AR",
    "CMAKE_CROSSCOMPILING_EMULATOR",
)
PROBE = (
    "cmake_minimum_required(VERSION 3.16)\n"
    "project(selective_build_toolchain_probe CXX)\n"
    f"foreach(name IN ITEMS {' '.join(VARIABLES)})\n"
    '  file(WRITE "${CMAKE_BINARY_DIR}/variables/${name}" "${${name}}")\n'
    "endforeach()\n"
)


def toolchain(
    name: str, file: Path, variables: Mapping[str, str], table: Mapping[str, Any]
) -> Toolchain:
    """The toolchain `name` from the probe's `variables` for `file` and the manifest
    `table`'s own keys (already checked for their types)."""
    targeting = [
        f"{flag}={variables[variable]}"
        for flag, variable in (
            ("--sysroot", "CMAKE_SYSROOT"),
            ("--target", "CMAKE_CXX_COMPILER_TARGET"),
            ("--gcc-toolchain", "CMAKE_CXX_COMPILER_EXTERNAL_TOOLCHAIN"),
        )
        if variables.get(variable)
    ]
    launcher = _list(variables.get("CMAKE_CXX_COMPILER_LAUNCHER", ""))
    default = default_toolchain()
    return Toolchain(
        name=name,
        compiler=table.get("compiler", variables.get("CMAKE_CXX_COMPILER") or default.compiler),
        launcher=table.get("launcher", launcher[0] if launcher else None),
        cflags=(
            *shlex.split(variables.get("CMAKE_CXX_FLAGS", "")),
            *targeting,
            *table.get("cflags", default.cflags),
        ),
        ldflags=(
            *shlex.split(variables.get("CMAKE_EXE_LINKER_FLAGS", "")),
            *targeting,
            *table.get("ldflags", ()),
        ),
        strip=table.get("strip", variables.get("CMAKE_STRIP") or default.strip),
        ar=table.get("ar", variables.get("CMAKE_AR") or default.ar),
        emulator=tuple(
            table.get("emulator", _list(variables.get("CMAKE_CROSSCOMPILING_EMULATOR", "")))
        ),
        cmake_toolchain_file=file,
        executorch=table.get("executorch"),
    )


def _list(value: str) -> list[str]:
    """A CMake list (`a;b;c`) as its items."""
    return [item for item in value.split(";") if item]


def run_probe(toolchain_file: Path, timeout: float = 600) -> dict[str, str]:
    """The PROBE project configured with `toolchain_file`: the variables it wrote down.
    InputError naming the file when CMake is missing or fails with it (its last line)."""
    with tempfile.TemporaryDirectory(prefix="selective-toolchain-") as scratch:
        folder = Path(scratch)
        (folder / "CMakeLists.txt").write_text(PROBE)
        command = [
            "cmake",
            "-S",
            str(folder),
            "-B",
            str(folder / "build"),
            f"-DCMAKE_TOOLCHAIN_FILE={toolchain_file.resolve()}",
        ]
        try:
            result = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, check=False
            )
        except FileNotFoundError:
            raise InputError(toolchain_file, "reading a CMake toolchain file needs cmake") from None
        except subprocess.TimeoutExpired:
            raise InputError(toolchain_file, f"cmake did not finish in {timeout:.0f} s") from None
        if result.returncode != 0:
            detail = _first_error(result.stderr) or f"exit status {result.returncode}"
            raise InputError(toolchain_file, f"cmake failed with this toolchain file: {detail}")
        written = folder / "build" / "variables"
        return {name: (written / name).read_text() for name in VARIABLES}


def _first_error(stderr: str) -> str | None:
    """The message of CMake's first error (the line after "CMake Error at ..."), else the
    last line it printed."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for index, line in enumerate(lines[:-1]):
        if line.startswith("CMake Error"):
            return lines[index + 1]
    return lines[-1] if lines else None


def variables_to_json(variables: Mapping[str, str]) -> str:
    """The probe's variables as the text of their cache file (tasks/cmake_probe.py)."""
    return dump_json({name: variables[name] for name in VARIABLES})


def variables_from_json(text: str) -> dict[str, str] | None:
    """The variables a cache file holds; None when it holds something else (another
    version's, a damaged file): the probe then runs again."""
    try:
        document = json.loads(text)
    except ValueError:
        return None
    if not isinstance(document, dict) or not all(
        isinstance(document.get(name), str) for name in VARIABLES
    ):
        return None
    return {name: document[name] for name in VARIABLES}
