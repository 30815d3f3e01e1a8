"""Incremental build scenarios on the default manifest and on a large generated one.

Usage (from the repository root):
    python3 benchmarks/incremental.py [--large-model-bytes 1073741824]

Builds in temporary copies of the repository (build/ is untouched). The large manifest
has 20 targets over 50 generated models (our `.pte` writer), one of them holding a 1 GiB
weight. For each scenario it reports the wall time of `doit build` and how many tasks and
compiles ran; `python -c "import doit"` is timed in the same run as the no-op reference.
No-ops are answered from the up-to-date stamp (Note [Up-to-date stamp]); one more row
deletes the stamp first, to show what doit's own check of every task costs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from selective_build.codegen.model import OperatorName  # noqa: E402
from selective_build.codegen.pte.writer import IntList, KernelCall, Method, Tensor, save_program  # noqa: E402
from selective_build.codegen.scalar_type import ScalarType  # noqa: E402
from tests.workspace import copy_repository, executed  # noqa: E402

TARGETS, MODELS = 20, 50
FLOAT = ScalarType.Float


def mlp_program(path: Path, width: int, weight_bytes: int = 0, extra_mul: bool = False) -> None:
    """permute_copy + addmm (+ mul): a Linear layer, optionally with a huge weight."""
    rows = max(width, weight_bytes // (4 * width)) if weight_bytes else width
    weight = Tensor(FLOAT, (rows, width), constant=bytes(rows * width * 4))
    bias = Tensor(FLOAT, (rows,), constant=bytes(rows * 4))
    values = (
        Tensor(FLOAT, (2, width)),
        weight,
        bias,
        IntList((1, 0)),
        Tensor(FLOAT, (width, rows)),
        1,
        1,
        Tensor(FLOAT, (2, rows)),
        Tensor(FLOAT, (2, rows)),
    )
    calls = [
        KernelCall(OperatorName.parse("aten::permute_copy.out"), (1, 3, 4, 4)),
        KernelCall(OperatorName.parse("aten::addmm.out"), (2, 0, 4, 5, 6, 7, 7)),
    ]
    output = 7
    if extra_mul:
        calls.append(KernelCall(OperatorName.parse("aten::mul.out"), (7, 7, 8, 8)))
        output = 8
    save_program([Method("forward", values, (0,), (output,), tuple(calls))], path)


def large_manifest(root: Path, large_model_bytes: int) -> Path:
    models_dir = root / "bench_models"
    models_dir.mkdir()
    lines = [
        "[libraries.portable]",
        'functions = "kernels/portable/functions.yaml"',
        'sources = "kernels/portable"',
        "",
    ]
    for index in range(MODELS):
        path = models_dir / f"m{index:02d}.pte"
        mlp_program(path, 4 + index % 7, large_model_bytes if index == 0 else 0)
        lines += [f"[models.m{index:02d}]", f'path = "{path.relative_to(root)}"', ""]
    for target in range(TARGETS):
        chosen = [f'"m{(target * 3 + k) % MODELS:02d}"' for k in range(3)]
        lines += [
            f"[targets.t{target:02d}]",
            f"models = [{', '.join(chosen)}]",
            'libraries = ["portable"]',
            "dtype_selective = true",
            "",
        ]
    manifest = root / "large.toml"
    manifest.write_text("\n".join(lines))
    return manifest


# Measured as users run it: Python caching compiled modules (this machine's sessions set
# PYTHONDONTWRITEBYTECODE, which would add ~40 ms of compiling to every doit run).
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed_build(workdir: Path, manifest: str) -> tuple[float, list[str]]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "doit", f"manifest={manifest}", "build"],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
        env=ENVIRONMENT,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(result.stdout[-2000:] + result.stderr[-2000:])
    return elapsed, executed(result.stdout)


def import_doit_seconds(repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import doit"], check=True, env=ENVIRONMENT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# (scenario, wall seconds, tasks that ran, `import doit` seconds measured beside it or None)
Result = tuple[str, float, list[str], float | None]


def row(label: str, result: Result) -> None:
    scenario, elapsed, ran, reference = result
    compiles = sum(task.startswith("compile:") for task in ran)
    ratio = f"{elapsed / reference:.2f}×" if reference else ""
    print(f"| {label} | {scenario} | {elapsed:.3f} | {ratio} | {len(ran)} | {compiles} |")


def scenarios(
    workdir: Path,
    manifest_name: str,
    model: Path,
    edit_target: str,
    edit_op: str,
    replacement: Callable[[Path], None] | None,
) -> list[Result]:
    results: list[Result] = [("clean build", *timed_build(workdir, manifest_name), None)]
    first = timed_build(workdir, manifest_name)
    results.append(("first no-op after it", *first, import_doit_seconds(repeat=3)))
    (workdir / "build" / ".up-to-date.json").unlink()
    unstamped = timed_build(workdir, manifest_name)
    results.append(
        ("no-op without the stamp: doit checks every task", *unstamped, import_doit_seconds(3))
    )
    # Interleaved with `import doit`, so both see the same load on a shared machine.
    noops, imports = [], []
    for _ in range(7):
        noops.append(timed_build(workdir, manifest_name))
        imports.append(import_doit_seconds(repeat=1))
    noop, reference = statistics.median(t for t, _ in noops), statistics.median(imports)
    results.append(
        (f"no-op (median of 7; import doit {reference:.3f} s)", noop, noops[-1][1], reference)
    )
    manifest = workdir / manifest_name
    text = manifest.read_text()
    head, _, rest = text.partition(f"[targets.{edit_target}]\n")
    extra = f'op_dtypes = {{ "{edit_op}" = ["Float"] }}'
    manifest.write_text(f"{head}[targets.{edit_target}]\n{extra}\n{rest}")
    edit = timed_build(workdir, manifest_name)
    results.append((f"add {edit_op} to target {edit_target}", *edit, None))
    model.touch()
    results.append((f"touch {model.name} (unchanged)", *timed_build(workdir, manifest_name), None))
    after = timed_build(workdir, manifest_name)
    results.append(("no-op after the touch", *after, import_doit_seconds(repeat=3)))
    if replacement is not None:
        replacement(model)
        replaced = timed_build(workdir, manifest_name)
        results.append((f"replace {model.name}: one more op", *replaced, None))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--large-model-bytes", type=int, default=1 << 30)
    args = parser.parse_args()
    print(f'`python -c "import doit"`: {import_doit_seconds():.3f} s (median of 7)\n')
    print("| manifest | scenario | wall s | vs import doit | tasks run | compiles |")
    print("|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        workdir = copy_repository(Path(scratch))
        mlp = workdir / "examples/models/mlp/mlp.pte"
        # The default models have reference outputs: replacing one would fail verification.
        for result in scenarios(workdir, "selective.toml", mlp, "both", "aten::sub.out", None):
            row("default", result)
    with tempfile.TemporaryDirectory() as scratch:
        workdir = copy_repository(Path(scratch))
        large_manifest(workdir, args.large_model_bytes)
        big = workdir / "bench_models/m00.pte"

        def with_mul(path: Path) -> None:
            mlp_program(path, 4, extra_mul=True)

        for scenario, elapsed, ran, reference in scenarios(
            workdir, "large.toml", big, "t05", "aten::mul.out", with_mul
        ):
            scenario = scenario.replace("m00.pte", "m00.pte (1 GiB)")
            row("large", (scenario, elapsed, ran, reference))
    return 0


if __name__ == "__main__":
    sys.exit(main())
