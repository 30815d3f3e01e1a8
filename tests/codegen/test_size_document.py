"""The size document's codec: what it writes reads back equal, and writes the same bytes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.size.budget import Breach
from selective_build.codegen.size.change import (
    Moved,
    MovedBucket,
    Reselected,
    SettingChange,
    SizeChange,
)
from selective_build.codegen.size.document import (
    BaselineFigures,
    BucketRow,
    LibraryOnly,
    OperatorInfo,
    PrebuiltPart,
    SizeDocument,
    read_earlier,
)
from selective_build.codegen.size.elf import Segment
from selective_build.codegen.size.estimate import Closeness
from selective_build.codegen.size.totals import LibraryFigures, SizeReport
from tests.codegen.test_size_report import SETTINGS as REPORT_SETTINGS

SETTINGS = replace(
    REPORT_SETTINGS,
    models=("m",),
    extra_ops=("aten::sub.out",),
    op_dtypes={"aten::add.out": ("Float",)},
)
CHANGE = SizeChange(
    measures={"file": Moved(1, 2)},
    buckets=(MovedBucket("kernel:portable/op_add", Moved(0, 600)),),
    added_operators={"aten::add.out": ("m",)},
    removed_operators={"aten::mul.out": ("n",)},
    reselected_operators={"aten::sub.out": Reselected(("n",), ("m", "n"))},
    settings={
        "models": SettingChange(["n"], ["m"]),
        "op_dtypes": SettingChange({}, {"aten::add.out": ["Float"]}),
        "runner": SettingChange(None, False),
    },
)


def document(library_only: bool, prebuilt: tuple[PrebuiltPart, ...] = ()) -> SizeDocument:
    return SizeDocument(
        report=SizeReport(
            text=9000,
            data=300,
            bss=64,
            file=12_288,
            registry_slots=2,
            kernels=2,
            operators=2,
            budget=16_384,
        ),
        target="t",
        registry_bytes=64,
        budgets={"file": 16_384, "text": 8000},
        breaches=(Breach("text", 9000, 8000),),
        buckets=(
            BucketRow(
                "kernel:portable/op_add",
                600,
                600,
                0,
                4.9,
                "kernel source file",
                ("aten::add.out",),
                ("m",),
                {"Float": 120},
                (("add_out", 500),),
            ),
            BucketRow("overhead", 0, 0, 0, 0, "ELF overhead", (), (), {}, ()),
        ),
        kernel_table=(
            OperatorInfo(
                "aten::add.out",
                "default",
                "portable",
                "portable::add_out",
                "kernel:portable/op_add",
                ("m",),
            ),
        ),
        model_savings={"m": 632},
        config=replace(SETTINGS, runner=not library_only),
        baseline=BaselineFigures("all", 600_000, 587_712, 0.02),
        segments=(Segment(True, 0, 4096, 4096),),
        change=CHANGE,
        estimate=Closeness(12_000, 12_288, -288, -2.3, ("kernel:portable/op_mul",)),
        library=LibraryFigures(text=1, data=2, bss=3, objects=4, file=5),
        library_only=LibraryOnly(20_000, 7712) if library_only else None,
        prebuilt=prebuilt,
    )


@pytest.mark.parametrize("library_only", [False, True])
def test_round_trip(library_only: bool) -> None:
    original = document(library_only)
    text = original.to_json()
    again = SizeDocument.from_json(text, "size.json")
    assert again == original
    assert again.to_json() == text
    raw = json.loads(text)
    assert ("library_only" in raw) is library_only
    # A runner's settings read as they always have: `runner` only when it is false.
    assert raw["config"].get("runner", True) is not library_only
    assert "prebuilt" not in raw


def test_prebuilt_libraries_are_listed_apart() -> None:
    """A runtime's prebuilt libraries (none for ours) are outside the file and its buckets."""
    parts = (PrebuiltPart("libexample.so", 90_000),)
    original = document(False, parts)
    raw = json.loads(original.to_json())
    assert raw["prebuilt"] == [{"name": "libexample.so", "file": 90_000}]
    assert sum(row["bytes"] for row in raw["buckets"]) == 600  # the buckets' alone
    assert SizeDocument.from_json(original.to_json(), "size.json") == original


def test_the_change_keeps_its_json_layout() -> None:
    raw = json.loads(document(False).to_json())["change"]
    assert raw["measures"] == {"file": {"before": 1, "after": 2}}
    assert raw["buckets"] == [{"name": "kernel:portable/op_add", "before": 0, "after": 600}]
    assert raw["reselected_operators"] == {"aten::sub.out": {"before": ["n"], "after": ["m", "n"]}}
    assert raw["settings"]["runner"] == {"before": None, "after": False}


def test_the_json_form_keeps_today_s_layout() -> None:
    raw = json.loads(document(False).to_json())
    # The contract's fields sit at the top level (docs/size-report.md).
    assert {k: raw[k] for k in ("file", "text", "budget", "kernels")} == {
        "file": 12_288,
        "text": 9000,
        "budget": 16_384,
        "kernels": 2,
    }
    assert raw["buckets"][0]["top_symbols"] == [["add_out", 500]]
    assert raw["baseline"] == {"target": "all", "file": 600_000, "saved": 587_712, "ratio": 0.02}


def test_a_bad_report_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "size.json"
    path.write_text('{"text": 1}')
    with pytest.raises(InputError, match=r"size\.json: not a size report: no '\w+'"):
        SizeDocument.read(path)
    raw = json.loads(document(False).to_json())
    raw["file"] = "big"
    path.write_text(json.dumps(raw))
    with pytest.raises(InputError, match=r"not a size report: expected an integer, got 'big'"):
        SizeDocument.read(path)
    path.write_text("[1")
    with pytest.raises(InputError, match=r"size\.json: not a size report: "):
        SizeDocument.read(path)
    with pytest.raises(InputError, match="cannot read"):
        SizeDocument.read(tmp_path / "missing.json")
    raw["file"], raw["config"]["dtype_selective"] = 1, "yes"
    path.write_text(json.dumps(raw))
    with pytest.raises(InputError, match=r"not a size report: expected true or false, got 'yes'"):
        SizeDocument.read(path)


def test_an_earlier_report_advises_so_a_bad_one_is_none(tmp_path: Path) -> None:
    path = tmp_path / "size.json"
    assert read_earlier(path) is None
    path.write_text('{"text": 1}')
    assert read_earlier(path) is None
    path.write_bytes(b"\xff\xfe")
    assert read_earlier(path) is None
    path.write_text(document(False).to_json())
    assert read_earlier(path) == document(False)
