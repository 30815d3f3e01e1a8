"""Instruction sets a toolchain compiles the optimized library for.

Note [Instruction sets]
A toolchain's `isa` names the x86-64 level its optimized kernels are compiled for:
`x86-64` (the baseline, SSE2), `x86-64-v2` (SSE4.2, POPCNT), `x86-64-v3` (AVX2, FMA, BMI2:
Haswell, Zen and later), `x86-64-v4` (AVX-512 F/BW/CD/DQ/VL: Skylake-X, Ice Lake, Zen 4),
`native` (everything the build machine has, `-march=native`), `best` (the highest of the
levels the build machine has: the default of the `host` toolchain) or `none` (no flag: the
toolchain's cflags decide, as for a cross compiler). The built-in toolchains `x86-64-v3`,
`x86-64-v4` and `native` are the host one with that `isa`. A manifest that names a level
builds the same bytes on every machine; `best` and `native` follow the build machine.

Only the optimized library's objects get the level's `-march`: the runtime and the
size-first libraries (portable, prim, quantized, at -Os) stay at the baseline, so a runner
without the optimized library is the same on every machine and needs no check. A runner
whose optimized kernels use more than the baseline also links runtime/startup/isa_check.cpp,
which, before anything else runs, checks that the processor has what they were compiled
for and otherwise stops in one line naming what is missing (never an illegal instruction).
"""

from __future__ import annotations

from pathlib import Path

from selective_build.codegen.machine import host_machine

LEVELS = ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
NATIVE = "native"
BEST = "best"
NONE = "none"
CHOICES = (*LEVELS, NATIVE, BEST, NONE)
# Built-in toolchains: the host toolchain with one of these as its isa.
BUILTIN_TOOLCHAINS = ("x86-64-v3", "x86-64-v4", NATIVE)

# What each level adds to the one below, as /proc/cpuinfo's flags name it.
_LEVEL_FLAGS = {
    "x86-64-v2": {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"},
    "x86-64-v3": {"abm", "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave"},
    "x86-64-v4": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"},
}
CPUINFO = Path("/proc/cpuinfo")


def best_level() -> str:
    """The highest level of LEVELS this machine runs: from the first `flags` line of
    CPUINFO (the kernel lists only what it enabled); the baseline when it cannot tell, and
    `none` on another processor than x86-64."""
    if host_machine() != "x86_64":
        return NONE
    try:
        text = CPUINFO.read_text(errors="replace")
    except OSError:
        return LEVELS[0]
    flags: set[str] = set()
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            flags = set(value.split())
            break
    best = LEVELS[0]
    for level in LEVELS[1:]:
        if not _LEVEL_FLAGS[level] <= flags:
            break
        best = level
    return best


def isa_flags(isa: str | None) -> tuple[str, ...]:
    """The compiler flags of a resolved isa (a level, `native`, or None / `none`)."""
    if isa is None or isa == NONE:
        return ()
    return (f"-march={isa}",)


def needs_check(isa: str | None) -> bool:
    """Whether code compiled for `isa` may fault on some x86-64 processor."""
    return isa not in (None, NONE, LEVELS[0])
