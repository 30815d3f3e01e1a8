"""The real-exporter conformance programs of this library's operators, their Float methods,
on the runner with the optimized library first, against PyTorch's outputs.

Only Float: the optimized entries claim Float alone, and in an include-all runner the
first library with an operator serves all its dtypes (the others are portable's, which the
conformance tests run). The full per-dtype fallback is tested with the resolution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.kernel_library import read_schema_operators
from tests.conformance.test_conformance import INDEX, PROGRAMS, REPO, _problem
from tests.kernels.harness import KernelRunner

OPTIMIZED = {
    str(op) for op in read_schema_operators(REPO / "kernels" / "optimized" / "functions.yaml")
}
PROGRAM_NAMES = sorted(
    name
    for name, entry in INDEX["programs"].items()
    if "f32" in entry["methods"] and OPTIMIZED & set(entry["targets"])
)


def test_every_optimized_operator_has_a_float_program() -> None:
    covered = {op for name in PROGRAM_NAMES for op in INDEX["programs"][name]["targets"]}
    assert OPTIMIZED <= covered, OPTIMIZED - covered


@pytest.mark.parametrize("name", PROGRAM_NAMES)
def test_float_program(name: str, optimized_runner: Path, tmp_path: Path) -> None:
    kernel = KernelRunner(optimized_runner, tmp_path)
    with np.load(PROGRAMS / f"{name}.npz") as data:
        for run in range(INDEX["programs"][name]["runs"]):
            problem = _problem(kernel, name, "f32", run, data)
            assert problem is None, f"{name}/f32 run {run}: {problem}"
