"""Stage 6: measure each runner, attribute its bytes, hold it to its budgets, report.

Writes build/<t>/size.json, size.md and size.html; prints what changed since the
previous build of the target, and fails (naming the top contributors) over budget. The
stage itself is `codegen.size.stage.measure_size`; this module names its files and
makes the doit task.

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

from pathlib import Path
from typing import Any

from doit.tools import config_changed

from selective_build.codegen.plan.size import SizeStep, size_step
from selective_build.codegen.size.inputs import Linked, SizeInputs
from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.code_deps import action_code
from selective_build.tasks.engine.actions import reports_user_errors
from selective_build.tasks.target import TargetPlan


def _code() -> list[Path]:
    """The code and templates the size action runs."""
    templates = layout.paths().templates_dir
    return [*action_code(measure), templates / "size.md.j2", templates / "size.html.j2"]


@reports_user_errors
def measure(inputs: SizeInputs) -> bool:
    # Imported when the action runs: loading doit's tasks does not import the ELF code.
    from selective_build.codegen.size.stage import measure_size

    paths = layout.paths()
    name = inputs.target.name
    outcome = measure_size(inputs)
    write_if_changed(paths.size_json(name), outcome.document.to_json())
    write_if_changed(paths.size_md(name), outcome.markdown)
    write_if_changed(paths.size_html(name), outcome.html)
    for line in outcome.lines:
        print(line)
    return outcome.within_budgets


def _linked(measured: tuple[Path, ...]) -> Linked | tuple[Linked, Linked]:
    """The plan's measured files, (stripped, unstripped) pairs: a runner's, or a minimal
    app's with and without the library (Note [Library-only size])."""
    pairs = [Linked(measured[i], measured[i + 1]) for i in range(0, len(measured), 2)]
    if len(pairs) == 1:
        return pairs[0]
    with_library, without = pairs
    return with_library, without


def size_inputs(plan: TargetPlan, step: SizeStep) -> SizeInputs:
    paths = layout.paths()
    target = plan.target
    name = target.name
    return SizeInputs(
        target=target,
        objects=step.objects,
        linked=_linked(step.measured),
        library=step.library,
        resolution=paths.resolution(name),
        provenance=paths.provenance(name),
        estimate=paths.size_estimate(name),
        previous=paths.size_json(name),
        baseline_runner=step.baseline_runner,
        prebuilt=step.prebuilt,
        non_selective=step.non_selective,
    )


def size_task(plan: TargetPlan) -> dict[str, Any]:
    paths = layout.paths()
    step = size_step(plan.runtime, plan.objects)
    inputs = size_inputs(plan, step)
    target = plan.target
    name = target.name
    linked = [inputs.linked] if not isinstance(inputs.linked, tuple) else list(inputs.linked)
    baseline = [] if inputs.baseline_runner is None else [inputs.baseline_runner]
    return {
        "basename": "size",
        "name": name,
        "actions": [(measure, [inputs])],
        "file_dep": [
            *(path for files in linked for path in (files.stripped, files.unstripped)),
            inputs.library,
            inputs.resolution,
            inputs.provenance,
            inputs.estimate,
            *(source.object for source in inputs.objects),
            *inputs.prebuilt,
            *([] if inputs.non_selective is None else [inputs.non_selective]),
            *baseline,
            *_code(),
        ],
        "task_dep": [f"link:{name}", *(f"link:{t}" for t in [target.size_baseline] if t)],
        "targets": [
            paths.size_json(name),
            paths.size_md(name),
            paths.size_html(name),
        ],
        "uptodate": [
            config_changed(
                {
                    "budget": target.size_budget,
                    "budgets": dict(sorted(target.size_budgets.items())),
                    "baseline": target.size_baseline,
                    "config": inputs.settings.to_dict(),
                    **plan.runtime.record(),
                }
            )
        ],
        "clean": True,
    }
