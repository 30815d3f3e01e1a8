"""`size_baseline = true`: the size report compares a target with an all-operators build of
its own libraries and toolchain, which the manifest adds and the build makes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.workspace import ADD_MUL_MODEL, copy_repository, doit

# A three-operator library keeps the all-operators build small enough for a test. Its
# kernels are portable's, which dispatch on their entries' dtypes (Note [Declared dtypes]).
FUNCTIONS = "".join(
    f"- func: {op}.out(Tensor self, Tensor other, *,{alpha} Tensor(a!) out) -> Tensor(a!)\n"
    "  dtypes: [Byte, Char, Short, Int, Long, Half, Float, Double, BFloat16, Bool]\n"
    f"  kernels:\n    - arg_meta: null\n      kernel_name: portable::{op}_out\n"
    for op, alpha in (("add", " Scalar alpha=1,"), ("mul", ""), ("sub", " Scalar alpha=1,"))
)
MANIFEST = (
    """
[libraries.tiny]
functions = "tiny_functions.yaml"
sources = "kernels/portable"
"""
    + ADD_MUL_MODEL
    + """
[targets.add_mul]
models = ["add_mul"]
libraries = ["tiny"]
dtype_selective = true
size_baseline = true
"""
)
BASELINE = "all-operators.host.tiny"


def test_the_report_compares_with_the_all_operators_build(tmp_path: Path) -> None:
    workdir = copy_repository(tmp_path)
    (workdir / "tiny_functions.yaml").write_text(FUNCTIONS)
    (workdir / "baseline.toml").write_text(MANIFEST)
    result = doit(workdir, "manifest=baseline.toml", "build")
    assert result.returncode == 0, result.stdout + result.stderr

    baseline_file = (workdir / "build" / BASELINE / "runner").stat().st_size
    baseline_size = json.loads((workdir / "build" / BASELINE / "size.json").read_text())
    assert baseline_size["kernels"] == 3 and baseline_size["file"] == baseline_file
    size = json.loads((workdir / "build" / "add_mul" / "size.json").read_text())
    assert size["baseline"]["target"] == BASELINE
    assert size["baseline"]["file"] == baseline_file
    assert size["baseline"]["saved"] == baseline_file - size["file"] > 0
    assert size["baseline"]["ratio"] == round(size["file"] / baseline_file, 3) < 1
    markdown = (workdir / "build" / "add_mul" / "size.md").read_text()
    assert f"All-operators baseline (target `{BASELINE}`)" in markdown
    assert f"{BASELINE}: 3 operators, 3 kernels registered" in result.stdout
