"""A target's size analysis: measures, buckets, who selected what, budgets, baseline.

`SizeAnalysis` is assembled once by the size stage; `size_document` is `size.json`'s
document (a superset of the contract's fields), and `size_pages` renders it through
`codegen/templates/size*.j2` (the view of it, codegen.size.view, formats every number).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from selective_build.codegen.render import render_template
from selective_build.codegen.size.attribution import Attribution, Bucket
from selective_build.codegen.size.budget import Breach, Contributor, breaches
from selective_build.codegen.size.diff import change_lines
from selective_build.codegen.size.document import (
    BaselineFigures,
    BucketRow,
    OperatorInfo,
    SizeDocument,
)
from selective_build.codegen.size.elf import Segment
from selective_build.codegen.size.prebuilt import prebuilt_markdown
from selective_build.codegen.size.settings import TargetSettings
from selective_build.codegen.size.totals import SizeReport
from selective_build.codegen.size.view import LIBRARY_HEADLINE, STRIPPED_HEADLINE, report_view
from selective_build.codegen.size_buckets import (
    BUCKET_DOC,
    KERNEL_PREFIX,
    REGISTRY_SLOT_BYTES,
    TOTALS,
)


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
    config: TargetSettings  # for diffs and the next estimate
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
        for model in self.config.models:
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
        config=analysis.config,
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
    markdown = render_markdown(document, lines)
    if document.estimate is not None:
        markdown += document.estimate.markdown(document.target)
    if alignment is not None:
        markdown += f"\n## Segment alignment\n\n{alignment}\n"
    if document.prebuilt:
        parts = [(part.name, part.file) for part in document.prebuilt]
        markdown += prebuilt_markdown(parts, document.non_selective)
    html = render_html(document, lines)
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


def render_markdown(document: SizeDocument, change_lines: Sequence[str]) -> str:
    return render_template("size.md.j2", report_view(document, change_lines).context())


def render_html(document: SizeDocument, change_lines: Sequence[str]) -> str:
    context = report_view(document, change_lines).context()
    # JSON inside <script>: no `<`, `>` or `&` can end the element or start markup.
    data = json.dumps(
        [{"name": b.name, "bytes": b.bytes, "doc": b.doc} for b in document.buckets],
        sort_keys=True,
    )
    context["chart_json"] = (
        data.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    )
    return render_template("size.html.j2", context)
