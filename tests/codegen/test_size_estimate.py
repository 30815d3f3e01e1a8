"""The runner-size estimate: its file and how the size stage compares it with the measured
runner, and in a real two-step build where a manifest edit adds operators."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.estimate import Closeness, Estimate, KernelCost, compare_estimate
from selective_build.codegen.size.predict import estimate
from tests.codegen.test_size_predict import EVERY, SELECTIVE, report
from tests.workspace import SMALL_MANIFEST, build_small, executed, small_workspace


def test_closeness_line() -> None:
    made = Estimate("mlp", 34_918, 30_000, "mlp", True, "host", 1, ())
    compared = made.closeness(36_045)
    assert compared == Closeness(34_918, 36_045, -1127, -3.1, ())
    assert compared.line("mlp") == "size: target mlp: estimated 34.1 KiB, measured 35.2 KiB (-3%)"
    assert replace(made, file=None).closeness(36_045) is None


def test_an_estimate_for_other_kernels_is_not_compared(tmp_path: Path) -> None:
    """A stale estimate (made for kernels other than those measured) says nothing."""
    add = KernelCost("kernel:portable/op_add", 500, ("mlp",))
    path = tmp_path / "size_estimate.json"
    path.write_text(Estimate("mlp", 30_000, 29_000, "mlp", True, "host", 1, (add,)).to_json())
    assert compare_estimate(path, 31_000, {add.bucket}, 1) is not None
    assert compare_estimate(path, 31_000, {add.bucket, "kernel:portable/op_mul"}, 2) is None
    assert compare_estimate(path, 31_000, {add.bucket}, 2) is None
    path.write_text("{")
    assert compare_estimate(path, 31_000, {add.bucket}, 1) is None


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
