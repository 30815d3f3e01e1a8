"""Instruction sets a toolchain compiles the optimized library for.

Note [Instruction sets]
A toolchain's `isa` names the x86-64 level its optimized kernels are compiled for:
`x86-64` (the baseline, SSE2), `x86-64-v2` (SSE4.2, POPCNT), `x86-64-v3` (AVX2, FMA, BMI2:
Haswell, Zen and later), `x86-64-v4` (AVX-512 F/BW/CD/DQ/VL: Skylake-X, Ice Lake, Zen 4),
`native` (everything the build machine has, `-march=native`), `best` (the highest of the
levels the build machine has, with the extensions of EXTENSIONS it has beyond that level: the
default of the `host` toolchain) or `none` (no flag: the toolchain's cflags decide, as for a
cross compiler). A level may name extensions after it, `x86-64-v4+avx512vnni`: each is one
more `-m` flag. EXTENSIONS holds only those a kernel has a path for that its level lacks (the
int8 GEMM's `vpdpbusd`, Note [int8 GEMM]; x86-64-v4 has no VNNI), so `best` takes what pays
and nothing a compiler would merely be allowed to use. The built-in toolchains `x86-64-v3`,
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
# Extensions beyond a level that a kernel has a path for: the GCC `-m` name, the /proc/cpuinfo
# flag, and the lowest level it may follow.
EXTENSIONS = {"avx512vnni": ("avx512_vnni", "x86-64-v4")}
# Built-in toolchains: the host toolchain with one of these as its isa.
BUILTIN_TOOLCHAINS = ("x86-64-v3", "x86-64-v4", NATIVE)

# What each level adds to the one below, as /proc/cpuinfo's flags name it.
_LEVEL_FLAGS = {
    "x86-64-v2": {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"},
    "x86-64-v3": {"abm", "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave"},
    "x86-64-v4": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"},
}
CPUINFO = Path("/proc/cpuinfo")


def _cpu_flags() -> set[str]:
    """The first `flags` line of CPUINFO (the kernel lists only what it enabled); empty when
    it cannot be read."""
    try:
        text = CPUINFO.read_text(errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            return set(value.split())
    return set()


def _highest_level(flags: set[str]) -> str:
    best = LEVELS[0]
    for level in LEVELS[1:]:
        if not _LEVEL_FLAGS[level] <= flags:
            break
        best = level
    return best


def best_level() -> str:
    """The highest level of LEVELS this machine runs; the baseline when it cannot tell, and
    `none` on another processor than x86-64."""
    if host_machine() != "x86_64":
        return NONE
    return _highest_level(_cpu_flags())


def best() -> str:
    """What `best` resolves to: best_level() and, after it, each extension of EXTENSIONS the
    machine has and the level allows (`x86-64-v4+avx512vnni` on Zen 4 or Ice Lake)."""
    if host_machine() != "x86_64":
        return NONE
    flags = _cpu_flags()
    level = _highest_level(flags)
    extra = [
        name
        for name, (flag, lowest) in EXTENSIONS.items()
        if flag in flags and LEVELS.index(level) >= LEVELS.index(lowest)
    ]
    return "+".join((level, *extra))


def unknown_part(isa: str) -> str | None:
    """What in an `isa` value is not a choice: the value itself when it is neither one of
    CHOICES nor a level followed by `+extension`s; an extension its level may not take."""
    if isa in CHOICES:
        return None
    level, *extensions = isa.split("+")
    if level not in LEVELS or not extensions:
        return isa
    for extension in extensions:
        if extension not in EXTENSIONS:
            return extension
        if LEVELS.index(level) < LEVELS.index(EXTENSIONS[extension][1]):
            return extension
    return None


def isa_flags(isa: str | None) -> tuple[str, ...]:
    """The compiler flags of a resolved isa (a level with its extensions, `native`, or None /
    `none`)."""
    if isa is None or isa == NONE:
        return ()
    level, *extensions = isa.split("+")
    return (f"-march={level}", *(f"-m{extension}" for extension in extensions))


def needs_check(isa: str | None) -> bool:
    """Whether code compiled for `isa` may fault on some x86-64 processor."""
    return isa not in (None, NONE, LEVELS[0])
