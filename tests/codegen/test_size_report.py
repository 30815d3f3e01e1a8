"""Budgets, diffs, explain and rendering of a size analysis, on hand-made measurements."""

from __future__ import annotations

from dataclasses import replace

import pytest

from selective_build.codegen.size.attribution import Attribution, Bucket
from selective_build.codegen.size.budget import breach_message
from selective_build.codegen.size.diff import change_lines, size_change
from selective_build.codegen.size.document import OperatorInfo
from selective_build.codegen.size.explain import explain_model, explain_operator
from selective_build.codegen.size.report import (
    SizeAnalysis,
    render_html,
    render_markdown,
    size_document,
)
from selective_build.codegen.size.settings import TargetSettings
from selective_build.codegen.size.totals import SizeReport

SETTINGS = TargetSettings(
    models=("add_mul", "mlp"),
    libraries=("portable",),
    extra_ops=(),
    op_dtypes={},
    include_all_operators=False,
    dtype_selective=True,
    toolchain="host",
)


def analysis(extra_sub: bool = False, budget: int | None = 24 * 1024) -> SizeAnalysis:
    buckets = [
        Bucket("overhead", 8000, 0, 0),
        Bucket("loader", 3000, 3000, 0),
        Bucket("kernel:portable/op_add", 600, 600, 0, {"Float": 120}),
        Bucket("kernel:portable/op_mul", 300, 300, 0, {"Float": 70}),
    ]
    operators = [
        OperatorInfo(
            "aten::add.out",
            "default",
            "portable",
            "portable::add_out",
            "kernel:portable/op_add",
            ("add_mul",),
        ),
        OperatorInfo(
            "aten::mul.out",
            "default",
            "portable",
            "portable::mul_out",
            "kernel:portable/op_mul",
            ("add_mul", "mlp"),
        ),
    ]
    if extra_sub:
        buckets.append(Bucket("kernel:portable/op_sub", 5000, 5000, 0))
        operators.append(
            OperatorInfo(
                "aten::sub.out",
                "default",
                "portable",
                "portable::sub_out",
                "kernel:portable/op_sub",
                ("selective.toml:targets.t.extra_ops",),
            )
        )
    file = sum(b.bytes for b in buckets)
    buckets.sort(key=lambda b: -b.bytes)
    return SizeAnalysis(
        target="t",
        report=SizeReport(
            text=file - 1000,
            data=500,
            bss=16,
            file=file,
            registry_slots=len(operators),
            kernels=len(operators),
            operators=len(operators),
            budget=budget,
        ),
        attribution=Attribution(file, tuple(buckets)),
        operators=tuple(operators),
        budgets={} if budget is None else {"file": budget},
        registry_bytes=32 * len(operators),
        config=replace(SETTINGS, extra_ops=("aten::sub.out",) if extra_sub else ()),
    )


def test_document_computes_shares_owners_and_savings() -> None:
    document = size_document(analysis())
    rows = {b.name: b for b in document.buckets}
    # The file is 8,000 + 3,000 + 600 + 300 = 11,900 B.
    assert rows["loader"].share == 25.2  # 100 * 3,000 / 11,900 = 25.21
    assert rows["kernel:portable/op_add"].share == 5.0  # 5.04
    assert rows["kernel:portable/op_mul"].share == 2.5  # 2.52
    assert rows["kernel:portable/op_add"].operators == ("aten::add.out",)
    assert rows["kernel:portable/op_mul"].selected_by == ("add_mul", "mlp")
    assert rows["kernel:portable/op_add"].doc == "kernel source file"
    # Only add_mul selects add.out: its 600 B bucket and one 32 B registry slot.
    assert document.model_savings == {"add_mul": 632, "mlp": 0}
    assert document.breaches == () and document.budgets == {"file": 24 * 1024}


def test_budget_breach_names_budget_actual_and_contributors() -> None:
    over = analysis(extra_sub=True, budget=1024)
    (breach,) = over.breaches()
    message = breach_message("t", breach, over.contributors(breach.measure))
    first, *rest = message.splitlines()
    assert first == (
        "error: target t: runner is 16.5 KiB (16,900 B), over its budget of 1.0 KiB (1,024 B) "
        "by 15.5 KiB (15,876 B)"
    )
    assert rest[0] == "  top contributors:"
    sub = next(line for line in rest if "kernel:portable/op_sub" in line)
    assert "aten::sub.out; selected by selective.toml:targets.t.extra_ops" in sub


def test_bucket_budget() -> None:
    base = analysis()
    capped = SizeAnalysis(**{**base.__dict__, "budgets": {"kernel:portable/op_add": 100}})
    (breach,) = capped.breaches()
    assert breach.measure == "kernel:portable/op_add" and breach.actual == 600


def test_diff_names_the_bucket_that_grew_and_the_manifest_change() -> None:
    before = size_document(analysis())
    after = size_document(analysis(extra_sub=True))
    change = size_change(before, after)
    assert change is not None
    lines = change_lines("t", change)
    assert (
        lines[0] == "size: target t: runner 11.6 KiB (11,900 B) -> 16.5 KiB (16,900 B) (+5,000 B)"
    )
    assert lines[1] == "  kernel:portable/op_sub grew by 5,000 B (0 -> 5,000 B)"
    assert lines[-2:] == [
        "  because aten::sub.out is now selected by selective.toml:targets.t.extra_ops",
        "  because the target's extra_ops changed: [] -> ['aten::sub.out']",
    ]
    assert size_change(before, before) is None


def test_explain_operator_and_model() -> None:
    documents = {"t": size_document(analysis())}
    assert explain_operator(documents, "aten::add.out", "Float") == [
        "t: aten::add.out is selected by add_mul; kernel portable::add_out from library "
        "portable; costs 600 B in kernel:portable/op_add",
        "t: aten::add.out for Float: 120 B of code instantiated for Float only",
    ]
    # dtypes are named as in manifests: either case.
    assert explain_operator(documents, "aten::add.out", "float") == explain_operator(
        documents, "aten::add.out", "Float"
    )
    with pytest.raises(ValueError, match="unknown dtype 'Flaot'"):
        explain_operator(documents, "aten::add.out", "Flaot")
    assert explain_operator(documents, "aten::div.out") == ["t: does not register aten::div.out"]
    assert explain_model(documents, "add_mul") == [
        "t: dropping add_mul would save about 632 B (operators only it selects: aten::add.out)"
    ]
    assert explain_model(documents, "mlp") == [
        "t: dropping mlp would save about 0 B (no operator is its alone)"
    ]


def test_reports_render() -> None:
    document = size_document(analysis())
    markdown = render_markdown(document, ["size: target t: changed"])
    assert "| kernel:portable/op_add | 600 |" in markdown and "size: target t: changed" in markdown
    html = render_html(document, [])
    assert "<script" in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")
