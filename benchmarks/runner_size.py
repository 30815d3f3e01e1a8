"""Runner sizes of every target of a manifest, from a fresh `doit build`.

Usage (from the repository root): python3 benchmarks/runner_size.py [benchmarks/sizes.toml]
Builds in a temporary copy of the repository so `build/` is untouched, then prints one
Markdown row per target from its `size.json`.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.workspace import copy_repository, doit  # noqa: E402


def main(manifest: str) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        workdir = copy_repository(Path(scratch))
        build = doit(workdir, f"manifest={manifest}", "build")
        if build.returncode != 0:
            print(build.stdout + build.stderr, file=sys.stderr)
            return 1
        print("| target | text | data | bss | stripped runner file | kernels | budget |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for size_json in sorted((workdir / "build").glob("*/size.json")):
            size = json.loads(size_json.read_text())
            budget = "-" if size["budget"] is None else f"{size['budget']:,}"
            print(
                f"| {size_json.parent.name} | {size['text']:,} | {size['data']:,} | "
                f"{size['bss']:,} | {size['file']:,} | {size['kernels']} | {budget} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "selective.toml"))
