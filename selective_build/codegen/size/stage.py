"""The size stage's one entry point: from what was linked and decided to the size document.

`measure_size` reads the linked files (a runner, or for a library-only target the two
minimal apps, Note [Library-only size] in tasks/size.py), the objects of the link, the
static library and the earlier stages' files (resolution, provenance, codegen's estimate,
the previous report), and returns the document, its pages and the lines to print. The
caller names every path and writes and prints the results; nothing here knows the build
folder's layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from selective_build.codegen.manifest import Target
from selective_build.codegen.provenance import Provenance
from selective_build.codegen.resolution_file import ResolutionFile, ResolvedKernel
from selective_build.codegen.size.alignment import alignment_note
from selective_build.codegen.size.attribution import (
    Attribution,
    LinkedObject,
    attribute,
    bucket_of_source,
)
from selective_build.codegen.size.budget import breach_message, target_budgets
from selective_build.codegen.size.diff import change_lines, size_change
from selective_build.codegen.size.document import (
    LibraryOnly,
    OperatorInfo,
    PrebuiltPart,
    SizeDocument,
    read_earlier,
)
from selective_build.codegen.size.elf import (
    Symbol,
    object_symbols,
    read_sections,
    read_segments,
    read_symbols,
)
from selective_build.codegen.size.estimate import compare_estimate
from selective_build.codegen.size.inputs import Linked, SizeInputs
from selective_build.codegen.size.library import added
from selective_build.codegen.size.prebuilt import non_selective
from selective_build.codegen.size.report import Baseline, SizeAnalysis, size_document, size_pages
from selective_build.codegen.size.totals import SizeReport, archive_sizes, berkeley_sizes
from selective_build.codegen.size_buckets import kernel_bucket

# What the kernel table says selected a kernel of an include-all target no source named.
INCLUDE_ALL = "include_all_operators"


@dataclass(frozen=True)
class SizeOutcome:
    document: SizeDocument
    markdown: str
    html: str
    lines: tuple[str, ...]  # to print, in order: notes, changes, estimate, breaches
    within_budgets: bool


def measure_size(inputs: SizeInputs) -> SizeOutcome:
    """The target's size document, size.md and size.html, and what to print."""
    target = inputs.target
    resolution = ResolutionFile.read(inputs.resolution)
    provenance = Provenance.read(inputs.provenance)
    operators = tuple(_operator(k, provenance, target) for k in resolution.kernels)
    libraries = {k.source: k.library for k in resolution.kernels}
    objects = [
        LinkedObject(
            bucket_of_source(linked.source, linked.bucket, libraries),
            linked.source.name,
            object_symbols(linked.object),
        )
        for linked in inputs.objects
    ]
    if isinstance(inputs.linked, Linked):
        attribution, (text, data, bss, file), symbols = _measure(inputs.linked, objects)
        segments = read_segments(inputs.linked.stripped)
        library_only = None
    else:
        with_app, without_app = inputs.linked
        (with_library, with_figures, symbols) = _measure(with_app, objects)
        (without, without_figures, _) = _measure(without_app, objects)
        text, data, bss, file = (a - b for a, b in zip(with_figures, without_figures, strict=True))
        attribution = added(with_library, without)
        segments = read_segments(with_app.stripped)
        library_only = LibraryOnly(
            with_library=with_app.stripped.stat().st_size,
            without_library=without_app.stripped.stat().st_size,
        )
    baseline = None
    if inputs.baseline_runner is not None and target.size_baseline is not None:
        baseline = Baseline(target.size_baseline, inputs.baseline_runner.stat().st_size)
    analysis = SizeAnalysis(
        target=target.name,
        report=SizeReport(
            text=text,
            data=data,
            bss=bss,
            file=file,
            registry_slots=resolution.registry_slots,
            kernels=len(resolution.kernels),
            operators=resolution.operators,
            budget=target.size_budget,
        ),
        attribution=attribution,
        operators=operators,
        budgets=target_budgets(target.size_budget, target.size_budgets),
        registry_bytes=sum(s.size for s in symbols if "kSelectedKernels" in s.name),
        config=inputs.settings,
        baseline=baseline,
        segments=segments,
    )
    measured = size_document(analysis)
    previous = read_earlier(inputs.previous)
    change = None if previous is None else size_change(previous, measured)
    compared = compare_estimate(
        inputs.estimate, file, {o.bucket for o in operators}, len(operators)
    )
    document = measured.with_extras(
        change=change,
        estimate=compared,
        library=archive_sizes(inputs.library),
        library_only=library_only,
        prebuilt=prebuilt_parts(inputs.prebuilt),
    )
    if inputs.non_selective is not None:
        buckets = {row.name: row.bytes for row in document.buckets}
        document = replace(document, non_selective=non_selective(inputs.non_selective, buckets))
    alignment = alignment_note(segments, file)
    markdown, html = size_pages(document, alignment)
    what = "runner" if target.runner else "library (added to an app)"
    failures = analysis.breaches()
    lines = [
        *([] if alignment is None else [f"{target.name}: {alignment}"]),
        *([] if change is None else change_lines(target.name, change)),
        *([] if compared is None else [compared.line(target.name)]),
        *(breach_message(target.name, b, analysis.contributors(b.measure), what) for b in failures),
    ]
    return SizeOutcome(document, markdown, html, tuple(lines), not failures)


def _operator(kernel: ResolvedKernel, provenance: Provenance, target: Target) -> OperatorInfo:
    return OperatorInfo(
        op=str(kernel.op),
        key=str(kernel.key),
        library=kernel.library,
        function=kernel.function,
        bucket=kernel_bucket(kernel.library, kernel.source),
        selected_by=selected_by(kernel, provenance, target),
    )


def selected_by(kernel: ResolvedKernel, provenance: Provenance, target: Target) -> tuple[str, ...]:
    """Who brought the kernel's operator in with any key: the target's models (the selection
    names each as the manifest does) and manifest entries."""
    sources = provenance.sources_of(kernel.op)
    if not sources and target.include_all_operators:
        sources = frozenset({INCLUDE_ALL})
    return tuple(sorted(sources))


def prebuilt_parts(libraries: Sequence[Path]) -> tuple[PrebuiltPart, ...]:
    """The prebuilt libraries the runner loads, by file name, and their bytes."""
    return tuple(PrebuiltPart(path.name, path.stat().st_size) for path in libraries)


def _measure(
    linked: Linked, objects: Sequence[LinkedObject]
) -> tuple[Attribution, tuple[int, int, int, int], tuple[Symbol, ...]]:
    """The file's attribution, (text, data, bss, file) and the unstripped file's symbols."""
    symbols = read_symbols(linked.unstripped)
    file, sections = linked.stripped.stat().st_size, read_sections(linked.stripped)
    return attribute(file, sections, symbols, objects), (*berkeley_sizes(sections), file), symbols
