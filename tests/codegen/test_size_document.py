"""The size document's codec: what it writes reads back equal, and writes the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.errors import InputError
from codegen.size.budget import Breach
from codegen.size.document import (
    BaselineFigures,
    BucketRow,
    Closeness,
    LibraryFigures,
    LibraryOnly,
    OperatorInfo,
    SizeDocument,
)
from codegen.size.elf import Segment
from codegen.size.totals import SizeReport


def document(library_only: bool) -> SizeDocument:
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
        config={"models": ["m"], "dtype_selective": False, "op_dtypes": {}},
        baseline=BaselineFigures("all", 600_000, 587_712, 0.02),
        segments=(Segment(True, 0, 4096, 4096),),
        change={"measures": {"file": {"before": 1, "after": 2}}, "buckets": []},
        estimate=Closeness(12_000, 12_288, -288, -2.3, ("kernel:portable/op_mul",)),
        library=LibraryFigures(text=1, data=2, bss=3, objects=4, file=5),
        library_only=LibraryOnly(20_000, 7712) if library_only else None,
    )


@pytest.mark.parametrize("library_only", [False, True])
def test_round_trip(library_only: bool) -> None:
    original = document(library_only)
    text = original.to_json()
    again = SizeDocument.from_json(text, "size.json")
    assert again == original
    assert again.to_json() == text
    assert ("library_only" in json.loads(text)) is library_only


def test_the_json_form_keeps_today_s_layout() -> None:
    raw = json.loads(document(False).to_json())
    # The contract's fields sit at the top level (README "Reading the size report").
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
