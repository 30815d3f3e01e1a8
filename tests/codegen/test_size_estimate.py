"""The runner-size estimate made at codegen: from synthetic size reports, and in a real
two-step build where a manifest edit adds operators."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from codegen.errors import InputError
from codegen.size.estimate import Estimate, closeness, closeness_line, estimate
from codegen.size_buckets import REGISTRY_SLOT_BYTES
from tests.workspace import SMALL_MANIFEST, build_small, executed, small_workspace

SELECTIVE = {"dtype_selective": True, "toolchain": "host"}
EVERY = {"dtype_selective": False, "toolchain": "host"}


def report(file: int, slots: int, kernels: dict[str, int], **config: Any) -> dict[str, Any]:
    buckets = [{"name": "core", "bytes": file - sum(kernels.values())}]
    buckets += [{"name": n, "bytes": b, "operators": []} for n, b in kernels.items()]
    return {
        "file": file,
        "registry_slots": slots,
        "buckets": buckets,
        "config": {**SELECTIVE, **config},
    }


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
        "every": report(60_000, 1, {"kernel:portable/op_mul": 9_000}, **EVERY),
        "arm": report(30_000, 1, {"kernel:portable/op_mul": 800}, toolchain="arm"),
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


def with_code_segment(document: dict[str, Any], offset: int, size: int) -> dict[str, Any]:
    """`document` with the segments of a runner whose code ends at offset + size."""
    segments = [
        {"executable": False, "offset": 0, "file_size": 0xA80, "alignment": 4096},
        {"executable": True, "offset": offset, "file_size": size, "alignment": 4096},
    ]
    return {**document, "segments": segments}


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


def test_closeness_line() -> None:
    compared = closeness({"estimate": 34_918, "unmeasured": []}, 36_045)
    assert compared is not None
    assert closeness_line("mlp", compared) == (
        "size: target mlp: estimated 34.1 KiB, measured 35.2 KiB (-3%)"
    )
    assert closeness({"estimate": None}, 36_045) is None


ESTIMATE_LINE = (  # {was}: the runner's size after the first build
    r"^estimate: target mlp ≈ (\d+\.\d) KiB after this change \(was {was} KiB\); "
    r"1 kernel not measured before$"
)
CLOSENESS_LINE = re.compile(
    r"^size: target mlp: estimated (\d+\.\d) KiB, measured (\d+\.\d) KiB \(([+-]\d+)%\)",
    re.MULTILINE,
)


def test_estimate_then_measurement_after_adding_operators(tmp_path: Path) -> None:
    workdir = small_workspace(tmp_path)
    first = build_small(workdir)
    assert "estimate:" not in first  # a first build is not estimated
    was = json.loads((workdir / "build" / "mlp" / "size.json").read_text())["file"] / 1024

    # mul.out was measured (every dtype) in `both`; sub.out in no target.
    manifest = workdir / SMALL_MANIFEST
    manifest.write_text(
        manifest.read_text()
        .replace(
            'models = ["mlp"]\n',
            'models = ["mlp"]\nextra_ops = ["aten::mul.out", "aten::sub.out"]\n',
            1,
        )
        .replace('size_budget = "40 KiB"', 'size_budget = "96 KiB"', 1)
    )
    second = build_small(workdir)
    line = re.search(ESTIMATE_LINE.format(was=re.escape(f"{was:.1f}")), second, re.MULTILINE)
    assert line is not None, second
    assert "codegen:add_mul" not in executed(second)

    saved = json.loads((workdir / "build" / "mlp" / "size_estimate.json").read_text())
    costs = {k["bucket"]: k for k in saved["kernels"]}
    assert costs["kernel:portable/op_mul"]["measured_in"] == ["both"]
    assert saved["unmeasured"] == ["kernel:portable/op_sub"]
    assert f"{saved['estimate'] / 1024:.1f}" == line.group(1)

    measured = CLOSENESS_LINE.search(second)
    assert measured is not None, second
    assert measured.group(1) == line.group(1)
    size = json.loads((workdir / "build" / "mlp" / "size.json").read_text())
    assert size["estimate"]["estimated"] == saved["estimate"]
    assert size["estimate"]["measured"] == size["file"]
    assert measured.group(2) == f"{size['file'] / 1024:.1f}"
    assert "## Estimate before compiling" in (workdir / "build" / "mlp" / "size.md").read_text()

    # Nothing changed: the estimate re-runs nothing, codegen included.
    assert executed(build_small(workdir)) == []


def test_size_estimate_json_round_trips(tmp_path: Path) -> None:
    previous = report(20_000, 2, {"kernel:portable/op_add": 500, "kernel:portable/op_mul": 300})
    made = estimate(
        "t",
        {"kernel:portable/op_add": False, "kernel:portable/op_sub": False},
        2,
        SELECTIVE,
        previous,
        {},
    )
    assert made.file is not None and made.unmeasured == ("kernel:portable/op_sub",)
    path = tmp_path / "size_estimate.json"
    path.write_text(made.to_json())
    assert Estimate.read(path) == made
    first = estimate("t", {"kernel:portable/op_add": True}, 1, EVERY, None, {})
    assert Estimate.from_json(first.to_json(), "first.json") == first
    with pytest.raises(
        InputError, match=r"^bad.json: not a size estimate: top level: no 'kernels'"
    ):
        Estimate.from_json("{}", "bad.json")
