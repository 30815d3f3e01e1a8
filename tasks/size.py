"""Stage 6: measure each runner, attribute its bytes, hold it to its budgets, report.

Writes build/<t>/size.json, size.md and size.html; prints what changed since the
previous build of the target, and fails (naming the top contributors) over budget.

Note [Library-only size]
A library-only target (`runner = false`) has no runner to measure; what its user pays is
what the library adds to their app. So a minimal app (runtime/size_app/minimal_app.cpp) is
linked twice with the target's toolchain and flags, stripped: alone, and with the calls
every app makes (load a program, register the selected kernels, load and execute a method)
and the target's library. The linker keeps what those calls reach, as it would in a real
app. file, text, data and bss are the differences of the two, the buckets the differences
of their attributions (the app's own few calls land in the toolchain bucket), and the
budgets apply to those. size.json's `library_only` holds both files' sizes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from doit.tools import config_changed

from codegen.manifest import Manifest, Target
from codegen.writer import write_if_changed
from tasks import layout
from tasks.code_deps import code_closure
from tasks.compile import ObjectSpec
from tasks.engine.actions import reports_user_errors

if TYPE_CHECKING:  # the action imports these when it runs (loading doit's tasks stays quick)
    from codegen.size.attribution import Attribution, LinkedObject
    from codegen.size.elf import Symbol


def _code() -> list[Path]:
    """The code and templates the size action runs."""
    templates = layout.codegen_dir() / "templates"
    return [*code_closure(__name__), templates / "size.md.j2", templates / "size.html.j2"]


@dataclass(frozen=True)
class SizeInputs:
    """Everything the size action reads besides the build outputs named in layout."""

    target: Target
    objects: tuple[tuple[Path, Path], ...]  # (source, object), in link order
    library_sources: Mapping[str, Path]  # library -> its sources folder
    model_files: Mapping[str, tuple[str, ...]]  # .pte file name -> the target's models
    baseline_runner: Path | None


def _shipped(source: Path) -> Path:
    """A source as the attribution names it: relative to the code we ship (runtime/...),
    also when that code is installed elsewhere; other sources unchanged."""
    root = layout.source_root()
    runtime = layout.runtime_dir()
    return source.relative_to(root) if runtime in source.parents else source


def size_config(target: Target) -> dict[str, Any]:
    """The target's settings a size diff reports when they change (`runner` only for a
    library-only target: a runner's config stays as it always was)."""
    library_only = {} if target.runner else {"runner": False}
    return library_only | {
        "models": list(target.models),
        "libraries": list(target.libraries),
        "extra_ops": [str(op) for op in target.extra_ops],
        "op_dtypes": {op: list(items) for op, items in sorted(target.op_dtypes.items())},
        "include_all_operators": target.include_all_operators,
        "dtype_selective": target.dtype_selective,
        "toolchain": target.toolchain,
    }


@reports_user_errors
def measure(inputs: SizeInputs) -> bool:
    from codegen.size.alignment import alignment_note
    from codegen.size.attribution import LinkedObject, attribute, bucket_of_source
    from codegen.size.buckets import kernel_bucket
    from codegen.size.budget import breach_message, target_budgets
    from codegen.size.diff import change_lines, size_change
    from codegen.size.document import LibraryFigures, LibraryOnly, OperatorInfo, closeness_of
    from codegen.size.elf import object_symbols, read_sections, read_segments, read_symbols
    from codegen.size.estimate import closeness_line, read_report
    from codegen.size.library import added
    from codegen.size.report import (
        Baseline,
        SizeAnalysis,
        size_document,
        size_pages,
    )
    from codegen.size.totals import SizeReport, archive_sizes, berkeley_sizes

    target = inputs.target
    name = target.name
    runner, unstripped = layout.runner(name), layout.unstripped_runner(name)
    resolution = json.loads(layout.resolution(name).read_text(encoding="utf-8"))
    provenance = json.loads(layout.provenance(name).read_text(encoding="utf-8"))

    kernel_libraries: dict[Path, str] = {}
    operators: list[OperatorInfo] = []
    for kernel in resolution["kernels"]:
        op_name = kernel["op"].partition("::")[2].partition(".")[0]
        source = inputs.library_sources[kernel["library"]] / f"op_{op_name}.cpp"
        kernel_libraries[source] = kernel["library"]
        operators.append(
            OperatorInfo(
                op=kernel["op"],
                key=kernel["key"],
                library=kernel["library"],
                function=kernel["function"],
                bucket=kernel_bucket(kernel["library"], source),
                selected_by=_selected_by(kernel["op"], provenance, inputs, target),
            )
        )
    linked = [
        LinkedObject(
            bucket_of_source(_shipped(source), kernel_libraries),
            source.name,
            object_symbols(obj),
        )
        for source, obj in inputs.objects
    ]
    if target.runner:
        symbols = read_symbols(unstripped)
        segments = read_segments(runner)
        file = runner.stat().st_size
        sections = read_sections(runner)
        attribution = attribute(file, sections, symbols, linked)
        text, data, bss = berkeley_sizes(sections)
    else:
        measured = [_measure_app(name, with_library, linked) for with_library in (True, False)]
        (with_app, with_figures, symbols), (without_app, without_figures, _) = measured
        text, data, bss, file = (a - b for a, b in zip(with_figures, without_figures, strict=True))
        attribution = added(with_app, without_app)
        segments = read_segments(layout.size_app(name, True))
    baseline = None
    if inputs.baseline_runner is not None and target.size_baseline is not None:
        baseline = Baseline(target.size_baseline, inputs.baseline_runner.stat().st_size)
    analysis = SizeAnalysis(
        target=name,
        report=SizeReport(
            text=text,
            data=data,
            bss=bss,
            file=file,
            registry_slots=resolution["registry_slots"],
            kernels=len(resolution["kernels"]),
            operators=resolution["operators"],
            budget=target.size_budget,
        ),
        attribution=attribution,
        operators=tuple(operators),
        budgets=target_budgets(target.size_budget, target.size_budgets),
        registry_bytes=sum(s.size for s in symbols if "kSelectedKernels" in s.name),
        config=size_config(target),
        models=target.models,
        baseline=baseline,
        segments=segments,
    )
    previous = read_report(layout.size_json(name))
    measured_document = size_document(analysis)
    change = None if previous is None else size_change(previous, measured_document.to_dict())
    lines = [] if change is None else change_lines(name, change)
    compared = _compare_estimate(name, file, {o.bucket for o in operators}, len(operators))
    library_only = (
        None
        if target.runner
        else LibraryOnly(
            with_library=layout.size_app(name, True).stat().st_size,
            without_library=layout.size_app(name, False).stat().st_size,
        )
    )
    document = measured_document.with_extras(
        change=change,
        estimate=None if compared is None else closeness_of(compared),
        library=LibraryFigures(**archive_sizes(layout.runtime_library(name))),
        library_only=library_only,
    )
    write_if_changed(layout.size_json(name), document.to_json())
    alignment = alignment_note(segments, file)
    if alignment is not None:
        print(f"{name}: {alignment}")
    markdown, html = size_pages(document, alignment)
    write_if_changed(layout.size_md(name), markdown)
    write_if_changed(layout.size_html(name), html)
    for line in lines:
        print(line)
    if compared is not None:
        print(closeness_line(name, compared))
    failures = analysis.breaches()
    for breach in failures:
        print(
            breach_message(
                name,
                breach,
                analysis.contributors(breach.measure),
                "runner" if target.runner else "library (added to an app)",
            )
        )
    return not failures


def _measure_app(
    target: str, with_library: bool, linked: Sequence[LinkedObject]
) -> tuple[Attribution, tuple[int, int, int, int], tuple[Symbol, ...]]:
    """The minimal app's attribution, (text, data, bss, file) and symbols."""
    from codegen.size.attribution import attribute
    from codegen.size.elf import read_sections, read_symbols
    from codegen.size.totals import berkeley_sizes

    app = layout.size_app(target, with_library)
    symbols = read_symbols(layout.unstripped_size_app(target, with_library))
    file, sections = app.stat().st_size, read_sections(app)
    return attribute(file, sections, symbols, linked), (*berkeley_sizes(sections), file), symbols


def _selected_by(
    op: str, provenance: Mapping[str, Any], inputs: SizeInputs, target: Target
) -> tuple[str, ...]:
    sources: set[str] = set()
    for names in provenance.get(op, {}).values():
        for source in names:
            sources.update(inputs.model_files.get(source, (source,)))
    if not sources and target.include_all_operators:
        sources.add("include_all_operators")
    return tuple(sorted(sources))


def _compare_estimate(
    target: str, file: int, buckets: set[str], slots: int
) -> dict[str, Any] | None:
    """How codegen's estimate compares with the measured runner, when the estimate was
    made for the kernels the runner has (Note [Size estimate])."""
    from codegen.size.estimate import closeness

    try:
        estimate = json.loads(layout.size_estimate(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(estimate, dict):
        return None
    estimated_buckets = {k.get("bucket") for k in estimate.get("kernels", [])}
    if estimated_buckets != buckets or estimate.get("registry_slots") != slots:
        return None
    return closeness(estimate, file)


def size_inputs(target: Target, manifest: Manifest, specs: Sequence[ObjectSpec]) -> SizeInputs:
    files: dict[str, list[str]] = {}
    for model in target.models:
        files.setdefault(manifest.models[model].path.name, []).append(model)
    baseline = target.size_baseline
    return SizeInputs(
        target=target,
        objects=tuple((spec.source, spec.object) for spec in specs),
        library_sources={name: lib.sources for name, lib in manifest.libraries.items()},
        model_files={name: tuple(models) for name, models in files.items()},
        baseline_runner=None if baseline is None else layout.runner(baseline),
    )


def size_task(target: Target, manifest: Manifest, specs: Sequence[ObjectSpec]) -> dict[str, Any]:
    inputs = size_inputs(target, manifest, specs)
    name = target.name
    measured = (
        [layout.runner(name), layout.unstripped_runner(name)]
        if target.runner
        else [
            path
            for with_library in (True, False)
            for path in (
                layout.size_app(name, with_library),
                layout.unstripped_size_app(name, with_library),
            )
        ]
    )
    baseline = [] if inputs.baseline_runner is None else [inputs.baseline_runner]
    return {
        "basename": "size",
        "name": name,
        "actions": [(measure, [inputs])],
        "file_dep": [
            *measured,
            layout.runtime_library(name),
            layout.resolution(name),
            layout.provenance(name),
            layout.size_estimate(name),
            *(obj for _, obj in inputs.objects),
            *baseline,
            *_code(),
        ],
        "task_dep": [f"link:{name}", *(f"link:{t}" for t in [target.size_baseline] if t)],
        "targets": [layout.size_json(name), layout.size_md(name), layout.size_html(name)],
        "uptodate": [
            config_changed(
                {
                    "budget": target.size_budget,
                    "budgets": dict(sorted(target.size_budgets.items())),
                    "baseline": target.size_baseline,
                    "config": size_config(target),
                    "model_files": {k: list(v) for k, v in sorted(inputs.model_files.items())},
                }
            )
        ],
        "clean": True,
    }
