"""Which x86-64 level the build machine runs (codegen/isa.py, Note [Instruction sets]), from
its /proc/cpuinfo, and the flags of each choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen import isa

V2 = "cx16 lahf_lm popcnt pni sse4_1 sse4_2 ssse3"
V3 = V2 + " abm avx avx2 bmi1 bmi2 f16c fma movbe xsave"
V4 = V3 + " avx512f avx512bw avx512cd avx512dq avx512vl"


@pytest.mark.parametrize(
    ("flags", "level"),
    [
        ("fpu sse sse2", "x86-64"),
        (V2, "x86-64-v2"),
        (V3, "x86-64-v3"),
        (V3.replace(" fma", ""), "x86-64-v2"),  # AVX2 without FMA is not v3
        (V4, "x86-64-v4"),
        (V4.replace(" avx512vl", ""), "x86-64-v3"),  # Knights Landing's AVX-512
        (V4.replace(" avx2", ""), "x86-64-v2"),  # levels are cumulative
    ],
)
def test_best_level_from_cpuinfo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: str, level: str
) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    # Only the first processor's flags are read.
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n\nprocessor\t: 1\nflags\t\t: {V4}\n")
    monkeypatch.setattr(isa, "CPUINFO", cpuinfo)
    monkeypatch.setattr(isa, "host_machine", lambda: "x86_64")
    assert isa.best_level() == level


@pytest.mark.parametrize(
    ("flags", "best"),
    [
        (V4, "x86-64-v4"),
        (V4 + " avx512_vnni", "x86-64-v4+avx512vnni"),  # Zen 4, Ice Lake: the int8 GEMM's
        (V3 + " avx512_vnni avx512f", "x86-64-v3"),  # VNNI only after a whole v4
        ("fpu sse sse2", "x86-64"),
    ],
)
def test_best_adds_the_extensions_a_kernel_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: str, best: str
) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n")
    monkeypatch.setattr(isa, "CPUINFO", cpuinfo)
    monkeypatch.setattr(isa, "host_machine", lambda: "x86_64")
    assert isa.best() == best
    monkeypatch.setattr(isa, "host_machine", lambda: "aarch64")
    assert isa.best() == "none"


def test_best_level_without_cpuinfo_or_on_another_processor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(isa, "CPUINFO", tmp_path / "missing")
    monkeypatch.setattr(isa, "host_machine", lambda: "x86_64")
    assert isa.best_level() == "x86-64"
    monkeypatch.setattr(isa, "host_machine", lambda: "aarch64")
    assert isa.best_level() == "none"


def test_flags_and_checks() -> None:
    assert isa.isa_flags("x86-64-v3") == ("-march=x86-64-v3",)
    assert isa.isa_flags("native") == ("-march=native",)
    assert isa.isa_flags("x86-64-v4+avx512vnni") == ("-march=x86-64-v4", "-mavx512vnni")
    assert isa.needs_check("x86-64-v4+avx512vnni")
    assert [isa.unknown_part(i) for i in ("best", "x86-64-v4+avx512vnni", "v4", "x86-64-v4+")] == [
        None,
        None,
        "v4",
        "",
    ]
    assert isa.isa_flags(None) == isa.isa_flags("none") == ()
    assert [isa.needs_check(i) for i in ("x86-64", "x86-64-v2", "native", None)] == [
        False,
        True,
        True,
        False,
    ]
