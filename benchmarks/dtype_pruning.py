"""Per kernel: the code size with every dtype against one dtype (Float).

Usage (from the repository root): python3 benchmarks/dtype_pruning.py [-j 2]

Each kernel source of kernels/portable is compiled twice with the build's own flags: as a
target that is not dtype-selective compiles it, and as a dtype-selective target that
selected only Float for its operators compiles it (a per-source selected_op_variants.h,
rendered by codegen). The figure is the bytes of the object's allocated sections (code,
read-only data, data), read with pyelftools; unreferenced sections are dropped at link
time, so the linked difference can only be smaller for shared helpers.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from selective_build.codegen.kernel_library import read_kernel_library  # noqa: E402
from selective_build.codegen.model import OperatorName  # noqa: E402
from selective_build.codegen.plan.objects import BASE_CFLAGS, DTYPE_SELECTIVE_DEFINE  # noqa: E402
from selective_build.codegen.render import render_op_dtypes  # noqa: E402
from selective_build.codegen.scalar_type import ScalarType  # noqa: E402
from selective_build.codegen.size.elf import read_sections  # noqa: E402

PORTABLE = Path("kernels/portable")


def allocated_bytes(path: Path) -> int:
    return sum(section.size for section in read_sections(path) if section.allocated)


def compile_object(source: Path, output: Path, extra: list[str]) -> int:
    command = ["c++", *BASE_CFLAGS, "-Os", "-I.", *extra, "-c", str(source), "-o", str(output)]
    subprocess.run(command, check=True)
    return allocated_bytes(output)


def measure(source: Path, ops: list[OperatorName], scratch: Path) -> tuple[str, int, int]:
    header_dir = scratch / source.stem
    header_dir.mkdir()
    float_only = {op: frozenset({ScalarType.Float}) for op in ops}
    (header_dir / "selected_op_variants.h").write_text(render_op_dtypes(float_only))
    every = compile_object(source, scratch / f"{source.stem}.all.o", [])
    one = compile_object(
        source, scratch / f"{source.stem}.float.o", [f"-I{header_dir}", DTYPE_SELECTIVE_DEFINE]
    )
    return source.stem.removeprefix("op_"), every, one


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-j", type=int, default=2)
    args = parser.parse_args()
    library = read_kernel_library("portable", PORTABLE / "functions.yaml", PORTABLE)
    by_source: dict[Path, list[OperatorName]] = {}
    for kernel in library.kernels:
        by_source.setdefault(kernel.source, []).append(kernel.op)
    with tempfile.TemporaryDirectory() as scratch, ThreadPoolExecutor(args.j) as pool:
        rows = list(
            pool.map(
                lambda item: measure(item[0], item[1], Path(scratch)), sorted(by_source.items())
            )
        )
    print("| kernel source | every dtype (B) | Float only (B) | Float / every |")
    print("|---|---:|---:|---:|")
    for name, every, one in sorted(rows, key=lambda row: row[1] - row[2], reverse=True):
        print(f"| op_{name} | {every:,} | {one:,} | {one / every:.2f} |")
    total_every, total_one = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(
        f"| **all {len(rows)} sources** | {total_every:,} | {total_one:,} | "
        f"{total_one / total_every:.2f} |"
    )
    shrunk = sum(one < every for _, every, one in rows)
    print(f"\n{shrunk} of {len(rows)} kernel sources are smaller with one dtype.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
