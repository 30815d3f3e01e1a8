"""C++ drivers of the optimized kernels' headers, compiled and run natively at the
instruction-set levels this machine has (the GEMM's and the channels-last convolution's
tests: each prints a last line saying what it checked)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from selective_build.codegen.isa import LEVELS, best_level, isa_flags
from tests.kernels.optimized.conftest import lower_levels
from tests.workspace import REPO


def levels_here() -> list[str]:
    """The levels this machine runs with a vector width of their own (x86-64-v2 has the
    baseline's): the driver runs natively (qemu has no AVX-512)."""
    best = best_level()
    return [*lower_levels(), best] if best in LEVELS else []


def run_driver(tmp_path: Path, name: str, program: str, isa: str, threads: int) -> str:
    """The last line `program` (C++ source) prints, compiled for `isa` with `threads` pool
    threads; it must exit 0."""
    source, binary = tmp_path / f"{name}.cpp", tmp_path / f"{name}-{isa}-{threads}"
    source.write_text(program)
    subprocess.run(
        ["c++", "-std=c++17", "-O2", "-fno-exceptions", "-fno-threadsafe-statics", "-pthread"]
        + [*isa_flags(isa), f"-DOPT_THREADS={threads}", f"-I{REPO}"]
        + ["-isystem", "/usr/include/eigen3", str(source), "-o", str(binary)],
        check=True,
        timeout=600,
    )
    result = subprocess.run([str(binary)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()[-1]
