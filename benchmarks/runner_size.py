"""Runner sizes of every target of a manifest, from a fresh `doit build`.

Usage (from the repository root): python3 benchmarks/runner_size.py [benchmarks/sizes.toml]
Builds in a temporary copy of the repository so `build/` is untouched, then prints from
each target's `size.json`:

1. one Markdown row per target: text, data, bss, stripped runner file, kernels, budget;
2. per target, the runner against the include-all baseline (target `all` of
   selective.toml, built in the same copy) and the registry table's bytes against
   ExecuTorch's default registry (2000 slots of 24 bytes on 64-bit);
3. per set of models built both ways, the dtype-selective runner against the one that is
   not.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.workspace import copy_repository, doit  # noqa: E402

BASELINE_MANIFEST = "selective.toml"
BASELINE_TARGET = "all"
# ExecuTorch's runtime/kernel registry: kMaxRegisteredKernels defaults to 2000 slots of
# `Kernel` (name pointer, key, function pointer: 24 bytes on 64-bit).
EXECUTORCH_REGISTRY_SLOTS = 2000
EXECUTORCH_REGISTRY_BYTES = EXECUTORCH_REGISTRY_SLOTS * 24


def main(manifest: str) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        workdir = copy_repository(Path(scratch))
        build = doit(workdir, f"manifest={manifest}", "build")
        if build.returncode != 0:
            print(build.stdout + build.stderr, file=sys.stderr)
            return 1
        # Outputs are in build/ beside each manifest.
        targets = _reports((workdir / manifest).parent / "build")
        baseline = targets.get(BASELINE_TARGET)
        if baseline is None:
            # The manifest has no include-all target: build the default manifest's.
            extra = doit(workdir, f"manifest={BASELINE_MANIFEST}", f"target:{BASELINE_TARGET}")
            if extra.returncode != 0:
                print(extra.stdout + extra.stderr, file=sys.stderr)
                return 1
            baseline = _reports(workdir / "build")[BASELINE_TARGET]
        print_sizes(targets)
        print()
        print_against_baseline(targets, baseline)
        print()
        print_dtype_selective(targets)
    return 0


def _reports(build: Path) -> dict[str, dict[str, Any]]:
    return {
        path.parent.name: json.loads(path.read_text()) for path in sorted(build.glob("*/size.json"))
    }


def print_sizes(targets: dict[str, dict[str, Any]]) -> None:
    print("| target | text | data | bss | stripped runner file | kernels | budget |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, size in targets.items():
        budget = "-" if size["budget"] is None else f"{size['budget']:,}"
        print(
            f"| {name} | {size['text']:,} | {size['data']:,} | "
            f"{size['bss']:,} | {size['file']:,} | {size['kernels']} | {budget} |"
        )


def print_against_baseline(targets: dict[str, dict[str, Any]], baseline: dict[str, Any]) -> None:
    print(
        f"| target | dtype-selective | stripped runner | `{BASELINE_TARGET}` runner | "
        f"runner / `{BASELINE_TARGET}` | registry slots | registry bytes | "
        f"registry / ExecuTorch's {EXECUTORCH_REGISTRY_BYTES:,} B |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    rows = dict(targets)
    rows.setdefault(BASELINE_TARGET, baseline)
    for name, size in rows.items():
        selective = "yes" if size["config"]["dtype_selective"] else "no"
        print(
            f"| {name} | {selective} | {size['file']:,} | {baseline['file']:,} | "
            f"{size['file'] / baseline['file']:.3f} | {size['registry_slots']} | "
            f"{size['registry_bytes']:,} | "
            f"{size['registry_bytes'] / EXECUTORCH_REGISTRY_BYTES:.4f} |"
        )


def print_dtype_selective(targets: dict[str, dict[str, Any]]) -> None:
    """Targets with the same models, extra operators and libraries, built both ways."""
    pairs: dict[str, dict[bool, tuple[str, int]]] = {}
    for name, size in targets.items():
        config = size["config"]
        if config.get("include_all_operators"):
            continue
        key = " + ".join(config["models"]) + "".join(f" + {op}" for op in config["extra_ops"])
        pairs.setdefault(key, {})[bool(config["dtype_selective"])] = (name, size["file"])
    print("| models | dtype-selective runner | every-dtype runner | selective / every |")
    print("|---|---:|---:|---:|")
    for key, pair in pairs.items():
        if True in pair and False in pair:
            (yes, yes_file), (no, no_file) = pair[True], pair[False]
            print(
                f"| {key} | {yes_file:,} ({yes}) | {no_file:,} ({no}) | {yes_file / no_file:.2f} |"
            )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "selective.toml"))
