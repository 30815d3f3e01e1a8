"""The price of the optimized library in runner bytes, per target (issue 12, item 9).

Usage (from the repository root, with the project's Python)::

    python benchmarks/price.py

Builds, in a temporary copy of the repository (``build/`` is untouched), one manifest whose
targets are each model group of ``GROUPS`` in every configuration of ``VARIANTS``: portable
alone, and optimized listed first for x86-64's baseline (SSE2), for x86-64-v3 (AVX2) and,
on a machine that runs it, x86-64-v4 (AVX-512) (Note [Instruction sets]), and with two
threads; each optimized library object at its own ``-O2``, the rest at ``-Os``. Every
target is dtype-selective (only the Float code of each kernel) and verifies its models
against their references, so a price is never that of a runner that does not work. Prints
a Markdown table: the stripped runner's bytes per group and configuration, and what the
optimized library adds to the portable runner.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from selective_build.codegen.isa import best_level  # noqa: E402
from tests.workspace import copy_repository, doit  # noqa: E402

# Model groups of the examples, as the README's targets group them.
GROUPS: dict[str, tuple[str, ...]] = {
    "mlp": ("mlp",),
    "llama": ("llama_static", "llama_dynamic"),
    "vision": ("mobilenet_v2", "resnet"),
}
# The baseline for the optimized library; the built-in toolchains x86-64-v3 and x86-64-v4
# need no table (Note [Instruction sets], codegen/isa.py).
TOOLCHAINS: dict[str, str] = {"baseline": "x86-64"}


@dataclass(frozen=True)
class Variant:
    """One way to build a group: kernel libraries, toolchain, threads."""

    label: str
    libraries: tuple[str, ...]
    toolchain: str
    threads: int = 1


OPTIMIZED = ("optimized", "portable", "prim")
VARIANTS: dict[str, Variant] = {
    "portable": Variant("portable, -Os", ("portable", "prim"), "host"),
    "opt": Variant("optimized first, isa x86-64 (SSE2)", OPTIMIZED, "baseline"),
    "opt_v3": Variant("optimized first, isa x86-64-v3 (AVX2)", OPTIMIZED, "x86-64-v3"),
    "opt_v4": Variant("optimized first, isa x86-64-v4 (AVX-512)", OPTIMIZED, "x86-64-v4"),
    "opt_t2": Variant("optimized first, x86-64-v3, threads = 2", OPTIMIZED, "x86-64-v3", 2),
}
if best_level() != "x86-64-v4":  # its runners could not be verified on this machine
    del VARIANTS["opt_v4"]
BASE = "portable"


def _quoted(items: tuple[str, ...]) -> str:
    return ", ".join(f'"{item}"' for item in items)


def _index(path: Path) -> int:
    """in2.npy before in10.npy: the runner takes its inputs in order."""
    return int(re.sub(r"\D", "", path.stem))


def manifest_text() -> str:
    lines = [
        f'[toolchains.{name}]\ncompiler = "c++"\ncflags = ["-Os"]\nisa = "{isa}"\n'
        for name, isa in TOOLCHAINS.items()
    ]
    models = sorted({model for group in GROUPS.values() for model in group})
    for model in models:
        folder = Path("examples/models") / model
        inputs, outputs = (
            tuple(
                str(folder / path.name)
                for path in sorted((REPO / folder).glob(pattern), key=_index)
            )
            for pattern in ("in[0-9]*.npy", "out[0-9]*.npy")
        )
        lines.append(
            f'[models.{model}]\npath = "{folder}/{model}.pte"\n'
            f"inputs = [{_quoted(inputs)}]\noutputs = [{_quoted(outputs)}]\n"
        )
    for group, members in GROUPS.items():
        for key, variant in VARIANTS.items():
            lines.append(
                f"[targets.{group}_{key}]\nmodels = [{_quoted(members)}]\n"
                f"libraries = [{_quoted(variant.libraries)}]\n"
                f'toolchain = "{variant.toolchain}"\nthreads = {variant.threads}\n'
                "dtype_selective = true\n"
            )
    return "\n".join(lines)


def processor() -> str:
    """The model name /proc/cpuinfo gives, for the table's heading."""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.partition(":")[2].strip()
    return "unknown processor"


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        workdir = copy_repository(Path(scratch))
        (workdir / "price.toml").write_text(manifest_text())
        build = doit(workdir, "-n", "2", "manifest=price.toml", "build", timeout=3600)
        if build.returncode != 0:
            print(f"price: the build failed:\n{build.stdout}{build.stderr}", file=sys.stderr)
            return 1
        sizes = {
            (group, key): int(
                json.loads((workdir / "build" / f"{group}_{key}" / "size.json").read_text())["file"]
            )
            for group in GROUPS
            for key in VARIANTS
        }
    labels = [VARIANTS[key].label for key in VARIANTS]
    print(f"Build machine: {processor()}; portable at -Os, optimized at -O2.\n")
    print("| target (models) | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(VARIANTS))
    for group, members in GROUPS.items():
        base = sizes[(group, BASE)]
        cells = [
            f"{sizes[(group, key)]:,} B"
            + ("" if key == BASE else f" (+{sizes[(group, key)] - base:,} B)")
            for key in VARIANTS
        ]
        print(f"| {group} ({', '.join(members)}) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
