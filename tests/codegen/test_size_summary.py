"""The size digest a build prints, computed from the size document."""

from __future__ import annotations

from dataclasses import replace

from selective_build.codegen.size.diff import size_change
from selective_build.codegen.size.document import BaselineFigures, LibraryOnly
from selective_build.codegen.size.estimate import Closeness
from selective_build.codegen.size.report import size_document
from selective_build.codegen.size.summary import digest, size_phrase, summary_line
from selective_build.codegen.verification import ModelResult, Verification
from tests.codegen.test_size_report import analysis


def test_digest_of_a_runner() -> None:
    assert digest(size_document(analysis())) == [
        "Stripped runner: 11.6 KiB (11,900 B). 2 operators, 2 kernels, registry 2 slots, 64 B.",
        "Budgets: file 11.6 KiB (11,900 B) of 24.0 KiB (24,576 B), ok",
        "Largest: overhead 8,000 B (67.2%), loader 3,000 B (25.2%), "
        "kernel:portable/op_add 600 B (5.0%)",
    ]
    assert size_phrase(size_document(analysis())) == (
        "runner 11.6 KiB (11,900 B) (budget 24.0 KiB (24,576 B))"
    )


def test_digest_with_baseline_change_and_estimate() -> None:
    change = size_change(size_document(analysis()), size_document(analysis(extra_sub=True)))
    document = replace(
        size_document(analysis(extra_sub=True, budget=None)),
        baseline=BaselineFigures("all", 40_000, 23_100, 0.42),
        change=change,
        estimate=Closeness(16_000, 16_900, -900, -5.3, ()),
    )
    lines = digest(document)
    assert lines[1] == "Budget: none."
    assert lines[3:] == [
        "All-operators baseline (target all): 39.1 KiB (40,000 B); this runner is 0.42× of it, "
        "22.6 KiB (23,100 B) smaller.",
        "Changed: runner 11.6 KiB (11,900 B) -> 16.5 KiB (16,900 B) (+5,000 B)",
        "  because aten::sub.out is now selected by selective.toml:targets.t.extra_ops",
        "Estimated 15.6 KiB, measured 16.5 KiB (-5%)",
    ]


def test_digest_of_a_library_only_target() -> None:
    document = replace(size_document(analysis()), library_only=LibraryOnly(30_000, 18_100))
    assert digest(document)[0].startswith("Added to a minimal app (stripped): 11.6 KiB")
    assert size_phrase(document).startswith("library adds 11.6 KiB (11,900 B) to an app")


def test_summary_line_from_the_documents() -> None:
    runner = size_document(analysis())
    two_of_three = Verification(
        {
            "a": ModelResult("ok"),
            "b": ModelResult("ok"),
            "c": ModelResult("unverified", "no reference outputs"),
        }
    )
    assert summary_line(runner, two_of_three) == (
        "t: 2 operators, 2 kernels registered, runner 11.6 KiB (11,900 B) "
        "(budget 24.0 KiB (24,576 B)), 2/3 models verified"
    )
    # Note [Instruction sets]: the level the optimized kernels were compiled for.
    assert summary_line(runner, two_of_three, "isa x86-64-v4 (the build machine's best)") == (
        "t: 2 operators, 2 kernels registered, runner 11.6 KiB (11,900 B) "
        "(budget 24.0 KiB (24,576 B)), isa x86-64-v4 (the build machine's best), "
        "2/3 models verified"
    )
    cross = Verification({"a": ModelResult("not verified", "no emulator")})
    assert summary_line(runner, cross).endswith(", not verified")
    assert summary_line(runner, Verification({})).endswith(", no models")
    library = replace(runner, library_only=LibraryOnly(30_000, 18_100))
    skipped = Verification({"a": ModelResult("library only", "runner = false")})
    assert summary_line(library, skipped).endswith(
        "library adds 11.6 KiB (11,900 B) to an app (budget 24.0 KiB (24,576 B)), "
        "library only, not run"
    )
