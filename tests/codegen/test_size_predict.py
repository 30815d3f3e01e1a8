"""Making the runner-size estimate (codegen/size/predict.py) from synthetic size reports."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.model import OperatorName
from selective_build.codegen.resolution import resolve
from selective_build.codegen.selection import Selection
from selective_build.codegen.size.document import BucketRow, SizeDocument
from selective_build.codegen.size.elf import Segment
from selective_build.codegen.size.predict import estimate, estimate_target, every_dtype_buckets
from selective_build.codegen.size.settings import TargetSettings
from selective_build.codegen.size.totals import SizeReport
from selective_build.codegen.size_buckets import REGISTRY_SLOT_BYTES
from tests.codegen.test_size_report import SETTINGS

PORTABLE = Path(__file__).resolve().parents[2] / "kernels" / "portable"

SELECTIVE = SETTINGS  # dtype-selective, on the host toolchain
EVERY = replace(SELECTIVE, dtype_selective=False)


def row(name: str, size: int) -> BucketRow:
    return BucketRow(name, size, size, 0, 0.0, "", (), (), {}, ())


def report(
    file: int, slots: int, kernels: dict[str, int], settings: TargetSettings = SELECTIVE
) -> SizeDocument:
    """A size report of `file` bytes: `kernels` (bucket -> bytes), the rest in `core`."""
    return SizeDocument(
        report=SizeReport(0, 0, 0, file, slots, slots, slots, None),
        target="t",
        registry_bytes=REGISTRY_SLOT_BYTES * slots,
        budgets={},
        breaches=(),
        buckets=(
            row("core", file - sum(kernels.values())),
            *(row(name, size) for name, size in kernels.items()),
        ),
        kernel_table=(),
        model_savings={},
        config=settings,
        baseline=None,
        segments=(),
    )


def test_previous_build_plus_a_kernel_measured_in_another_target() -> None:
    previous = report(20_000, 2, {"kernel:portable/op_add": 500, "kernel:portable/op_mul": 300})
    other = report(21_000, 1, {"kernel:portable/op_sub": 700})
    result = estimate(
        "t",
        {"kernel:portable/op_add": False, "kernel:portable/op_sub": False},
        2,
        SELECTIVE,
        previous,
        {"other": other},
    )
    assert result.file == 20_000 - 300 + 700
    assert result.previous == 20_000 and result.basis == "t"
    assert result.unmeasured == ()
    assert [k.measured_in for k in result.kernels] == [("t",), ("other",)]


def test_unmeasured_kernels_count_nothing_and_are_named() -> None:
    previous = report(20_000, 1, {"kernel:portable/op_add": 500})
    result = estimate(
        "t",
        {"kernel:portable/op_add": False, "kernel:portable/op_div": False},
        2,
        SELECTIVE,
        previous,
        {},
    )
    assert result.file == 20_000 + REGISTRY_SLOT_BYTES
    assert result.unmeasured == ("kernel:portable/op_div",)
    assert result.line() == (
        "estimate: target t ≈ 19.6 KiB after this change (was 19.5 KiB); "
        "1 kernel not measured before"
    )


def test_other_dtype_selectivity_or_toolchain_is_not_comparable() -> None:
    previous = report(20_000, 1, {"kernel:portable/op_add": 500})
    others = {
        "every": report(60_000, 1, {"kernel:portable/op_mul": 9_000}, EVERY),
        "arm": report(
            30_000, 1, {"kernel:portable/op_mul": 800}, replace(SELECTIVE, toolchain="arm")
        ),
        "a": report(21_000, 1, {"kernel:portable/op_mul": 400}),
        "b": report(21_000, 1, {"kernel:portable/op_mul": 600}),
        "c": report(21_000, 1, {"kernel:portable/op_mul": 500}),
    }
    wanted = {"kernel:portable/op_add": False, "kernel:portable/op_mul": False}
    result = estimate("t", wanted, 2, SELECTIVE, previous, others)
    mul = result.kernels[1]
    assert (mul.bytes, mul.measured_in) == (500, ("a", "b", "c"))  # the median
    # An operator selected by name is compiled for every dtype, even in a selective target.
    wanted["kernel:portable/op_mul"] = True
    assert estimate("t", wanted, 2, SELECTIVE, previous, others).kernels[1].bytes == 9_000


def with_code_segment(document: SizeDocument, offset: int, size: int) -> SizeDocument:
    """`document` with the segments of a runner whose code ends at offset + size."""
    segments = (Segment(False, 0, 0xA80, 4096), Segment(True, offset, size, 4096))
    return replace(document, segments=segments)


def test_code_grows_the_file_in_whole_pages() -> None:
    kernels = {"kernel:portable/op_add": 500, "kernel:portable/op_mul": 300}
    # add_mul's layout: code ends 3 bytes before a page boundary.
    previous = with_code_segment(report(22_864, 2, kernels), 0x1000, 0x2FFD)
    other = report(21_000, 1, {"kernel:portable/op_sub": 700})
    wanted = {name: False for name in [*kernels, "kernel:portable/op_sub"]}
    grown = estimate("t", wanted, 2, SELECTIVE, previous, {"other": other})
    assert grown.file == 22_864 + 4096  # 700 bytes of code cross one page boundary
    shrunk = estimate("t", {"kernel:portable/op_add": False}, 2, SELECTIVE, previous, {})
    assert shrunk.file == 22_864  # 300 bytes less stay within the same page
    fewer = with_code_segment(report(22_864, 2, kernels), 0x1000, 0x2010)
    assert estimate("t", {"kernel:portable/op_add": False}, 2, SELECTIVE, fewer, {}).file == (
        22_864 - 4096
    )


def test_first_build_is_not_estimated() -> None:
    """Other targets' reports depend on build order on a clean build: not used then."""
    others = {"small": report(20_000, 1, {"kernel:p/op_a": 1_000, "kernel:p/op_b": 9_000})}
    result = estimate("t", {"kernel:p/op_b": False}, 1, SELECTIVE, None, others)
    assert result.file is None and result.basis is None and result.previous is None
    assert "no earlier size report" in result.line()


def test_a_bucket_holds_every_dtype_only_when_an_operator_of_it_does() -> None:
    library = read_kernel_library("portable", PORTABLE / "functions.yaml", PORTABLE)
    float_add = Selection.from_op_dtypes({"aten::add.out": ["Float"]}, "a")
    any_mul = Selection.from_operators([OperatorName.parse("aten::mul.out")], "extra_ops")
    resolution = resolve(float_add | any_mul, [library], "t")
    assert every_dtype_buckets(resolution, dtype_selective=True) == {
        "kernel:portable/op_add": False,
        "kernel:portable/op_mul": True,
    }
    assert set(every_dtype_buckets(resolution, dtype_selective=False).values()) == {True}


def test_the_reports_are_read_as_advice(tmp_path: Path) -> None:
    """Every target's size.json is read through the codec; a missing or damaged one is none,
    and without the target's own nothing is estimated."""
    library = read_kernel_library("portable", PORTABLE / "functions.yaml", PORTABLE)
    resolution = resolve(
        Selection.from_op_dtypes({"aten::add.out": ["Float"]}, "a"), [library], "t"
    )
    reports = {name: tmp_path / f"{name}.json" for name in ("t", "other", "damaged", "missing")}
    reports["other"].write_text(report(21_000, 1, {"kernel:portable/op_add": 700}).to_json())
    reports["damaged"].write_text('{"file": 1}')
    assert estimate_target("t", resolution, SELECTIVE, reports).file is None
    reports["t"].write_text(report(20_000, 1, {}).to_json())
    made = estimate_target("t", resolution, SELECTIVE, reports)
    assert made.file == 20_000 + 700 and made.kernels[0].measured_in == ("other",)
