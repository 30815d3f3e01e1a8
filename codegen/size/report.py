"""A target's size analysis: measures, buckets, who selected what, budgets, baseline.

`SizeAnalysis` is assembled once by the size stage; `to_document` is `size.json` (a
superset of the contract's fields), and `render_markdown` / `render_html` format it
through `codegen/templates/size*.j2`. Every number and order is decided here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from codegen.render import render_template
from codegen.size.attribution import Attribution, Bucket
from codegen.size.budget import Breach, Contributor, breaches
from codegen.size.diff import change_lines
from codegen.size.document import BaselineFigures, BucketRow, OperatorInfo, SizeDocument
from codegen.size.elf import Segment
from codegen.size.estimate import closeness_markdown
from codegen.size.totals import SizeReport
from codegen.size_buckets import BUCKET_DOC, KERNEL_PREFIX, REGISTRY_SLOT_BYTES, TOTALS
from codegen.units import format_size

# size.md's headline, and what it says instead for a library-only target.
STRIPPED_HEADLINE = "Stripped runner:"
LIBRARY_HEADLINE = "Added to a minimal app (stripped):"


@dataclass(frozen=True)
class Baseline:
    target: str
    file: int

    def saved(self, file: int) -> int:
        return self.file - file


@dataclass(frozen=True)
class SizeAnalysis:
    target: str
    report: SizeReport
    attribution: Attribution
    operators: tuple[OperatorInfo, ...]
    budgets: Mapping[str, int]  # measure or bucket -> bytes (includes `file`)
    registry_bytes: int
    config: Mapping[str, Any]  # the target's manifest settings, for diffs
    models: tuple[str, ...]
    baseline: Baseline | None = None
    segments: tuple[Segment, ...] = ()  # of the stripped runner, for the next estimate

    def actuals(self) -> dict[str, int]:
        values = {
            "file": self.report.file,
            "text": self.report.text,
            "data": self.report.data,
            "bss": self.report.bss,
            "kernels": self.attribution.bytes_of("kernels"),
        }
        values.update({b.name: b.bytes for b in self.attribution.buckets})
        return values

    def breaches(self) -> list[Breach]:
        return breaches(self.actuals(), self.budgets)

    def bucket_operators(self, bucket: str) -> list[str]:
        return sorted({o.op for o in self.operators if o.bucket == bucket})

    def bucket_selected_by(self, bucket: str) -> list[str]:
        return sorted({s for o in self.operators if o.bucket == bucket for s in o.selected_by})

    def contributors(self, measure: str, limit: int = 5) -> list[Contributor]:
        """The largest buckets inside `measure` (its symbols, for a single bucket)."""
        if measure in TOTALS or measure == "kernels":
            pool = [
                b
                for b in self.attribution.buckets
                if measure != "kernels" or b.name.startswith(KERNEL_PREFIX)
            ]
            return [
                Contributor(b.name, b.bytes, self.describe(b.name)) for b in pool[:limit] if b.bytes
            ]
        bucket = self.attribution.bucket(measure)
        if bucket is None:
            return []
        return [Contributor(name, size, "symbol") for name, size in bucket.top_symbols[:limit]]

    def describe(self, bucket: str) -> str:
        if bucket.startswith(KERNEL_PREFIX):
            ops = ", ".join(self.bucket_operators(bucket))
            return f"{ops}; selected by {', '.join(self.bucket_selected_by(bucket)) or '-'}"
        return BUCKET_DOC.get(bucket, "")

    def model_savings(self) -> dict[str, int]:
        """Per model: bytes of the kernel buckets only it selects, and their registry slots
        (an estimate: shared helpers and other dtypes of kept kernels are not counted)."""
        savings: dict[str, int] = {}
        for model in self.models:
            saved = 0
            buckets = {o.bucket for o in self.operators}
            for bucket in buckets:
                rows = [o for o in self.operators if o.bucket == bucket]
                if all(set(o.selected_by) == {model} for o in rows):
                    saved += self.attribution.bytes_of(bucket) + REGISTRY_SLOT_BYTES * len(rows)
            savings[model] = saved
        return savings


def size_document(analysis: SizeAnalysis) -> SizeDocument:
    """The size document of the analysis. `change`, `estimate`, `library` and
    `library_only` are filled in by the caller, which has the previous report and the other
    measurements (SizeDocument.with_extras)."""
    baseline = analysis.baseline
    file = analysis.report.file
    return SizeDocument(
        report=analysis.report,
        target=analysis.target,
        registry_bytes=analysis.registry_bytes,
        budgets=dict(sorted(analysis.budgets.items())),
        breaches=tuple(analysis.breaches()),
        buckets=tuple(_bucket_row(analysis, b) for b in analysis.attribution.buckets),
        kernel_table=analysis.operators,
        model_savings=analysis.model_savings(),
        config=dict(analysis.config),
        baseline=None
        if baseline is None
        else BaselineFigures(
            target=baseline.target,
            file=baseline.file,
            saved=baseline.saved(file),
            ratio=round(file / baseline.file, 3) if baseline.file else None,
        ),
        segments=analysis.segments,
    )


def to_document(analysis: SizeAnalysis) -> dict[str, Any]:
    """size.json's JSON form of the analysis: the contract's fields, then the analysis."""
    return size_document(analysis).to_dict()


def _bucket_row(analysis: SizeAnalysis, bucket: Bucket) -> BucketRow:
    file = analysis.report.file
    return BucketRow(
        name=bucket.name,
        bytes=bucket.bytes,
        code=bucket.code,
        bss=bucket.bss,
        share=round(100 * bucket.bytes / file, 1) if file else 0,
        doc=BUCKET_DOC.get(bucket.name, "kernel source file"),
        operators=tuple(analysis.bucket_operators(bucket.name)),
        selected_by=tuple(analysis.bucket_selected_by(bucket.name)),
        dtypes=dict(bucket.dtypes),
        top_symbols=tuple(bucket.top_symbols),
    )


def size_pages(document: SizeDocument, alignment: str | None) -> tuple[str, str]:
    """size.md and size.html of the document; `alignment` is the segment alignment note
    (codegen.size.alignment), if any."""
    lines = [] if document.change is None else change_lines(document.target, document.change)
    raw = document.to_dict()
    estimate = None if document.estimate is None else asdict(document.estimate)
    markdown = render_markdown(raw, lines) + closeness_markdown(document.target, estimate)
    if alignment is not None:
        markdown += f"\n## Segment alignment\n\n{alignment}\n"
    html = render_html(raw, lines)
    apps = document.library_only
    if apps is not None:
        markdown = markdown.replace(STRIPPED_HEADLINE, LIBRARY_HEADLINE, 1) + (
            "\n## Library only\n\n"
            "This target links no runner (`runner = false`). Its figures are what the library"
            " adds to a minimal app (runtime/size_app/minimal_app.cpp) that loads a program and"
            f" runs a method: {apps.with_library:,} B with the library,"
            f" {apps.without_library:,} B without it, stripped:"
            f" **{document.report.file:,} B** added. Budgets apply to that difference.\n"
        )
        html = html.replace(STRIPPED_HEADLINE, LIBRARY_HEADLINE, 1).replace(
            "the stripped runner file", "added to the minimal app's stripped file"
        )
    return markdown, html


def render_markdown(document: Mapping[str, Any], change_lines: Sequence[str]) -> str:
    return render_template("size.md.j2", report_view(document, change_lines))


def render_html(document: Mapping[str, Any], change_lines: Sequence[str]) -> str:
    view = report_view(document, change_lines)
    # JSON inside <script>: no `<`, `>` or `&` can end the element or start markup.
    data = json.dumps(
        [{"name": b["name"], "bytes": b["bytes"], "doc": b["doc"]} for b in document["buckets"]],
        sort_keys=True,
    )
    view["chart_json"] = (
        data.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    )
    return render_template("size.html.j2", view)


def report_view(document: Mapping[str, Any], change_lines: Sequence[str]) -> dict[str, Any]:
    file = document["file"]
    budgets = [
        {
            "measure": measure,
            "budget": format_size(limit),
            "actual": format_size(_actual(document, measure)),
            "verdict": "OVER" if _actual(document, measure) > limit else "ok",
        }
        for measure, limit in document["budgets"].items()
    ]
    buckets = [
        {
            **bucket,
            "size": format_size(bucket["bytes"]),
            "detail": ", ".join(bucket["operators"])
            + (
                f" (selected by {', '.join(bucket['selected_by'])})"
                if bucket["selected_by"]
                else ""
            )
            if bucket["operators"]
            else bucket["doc"],
            "dtype_text": ", ".join(f"{d} {n:,} B" for d, n in bucket["dtypes"].items()),
        }
        for bucket in document["buckets"]
    ]
    baseline = document["baseline"]
    return {
        "target": document["target"],
        "file": format_size(file),
        "text": f"{document['text']:,}",
        "data": f"{document['data']:,}",
        "bss": f"{document['bss']:,}",
        "file_bytes": f"{file:,}",
        "registry": f"{document['registry_slots']} slots, {document['registry_bytes']:,} B",
        "operators": document["operators"],
        "kernels": document["kernels"],
        "budgets": budgets,
        "buckets": buckets,
        "total": f"{sum(b['bytes'] for b in document['buckets']):,}",
        "savings": [
            {"model": model, "saved": format_size(saved)}
            for model, saved in sorted(document["model_savings"].items())
        ],
        "baseline": None
        if baseline is None
        else {
            "target": baseline["target"],
            "file": format_size(baseline["file"]),
            "saved": format_size(max(baseline["saved"], 0)),
            "ratio": f"{baseline['ratio']:.2f}" if baseline["ratio"] is not None else "-",
        },
        "change": list(change_lines),
    }


def _actual(document: Mapping[str, Any], measure: str) -> int:
    if measure in TOTALS:
        return int(document[measure])
    if measure == "kernels":
        return sum(
            b["bytes"]
            for b in document["buckets"]
            if b["name"].startswith(KERNEL_PREFIX) or b["name"] == "kernels:shared"
        )
    return next((int(b["bytes"]) for b in document["buckets"] if b["name"] == measure), 0)
