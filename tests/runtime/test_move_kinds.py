"""A MoveCall between values of different kinds is refused when the method loads (Note
[A move keeps a value's kind] in runtime/executor/instructions.cpp): the load-time check
of every kernel call had accepted the destination's kind, and the move, run later, put a
value of another kind there (the fuzz run's finding, seed 13: a kernel read an Int as a
Tensor pointer, or a Tensor pointer as a Scalar). Run on the sanitized include-all runner,
where that read was a UBSan report."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import (
    Instruction,
    KernelCall,
    Method,
    MoveCall,
    Tensor,
    Value,
    save_program,
)
from selective_build.codegen.scalar_type import ScalarType
from tests.fuzz.sanitized import ENVIRONMENT, sanitized_runner

ABS = OperatorName.parse("aten::abs.out")
ADD = OperatorName.parse("aten::add.out")
CONSTANT = struct.pack("<2f", -1.5, 2.0)


@pytest.fixture(scope="module")
def runner() -> Path:
    return sanitized_runner()


def write(path: Path, values: tuple[Value, ...], *instructions: Instruction) -> Path:
    output = len(values) - 1
    save_program([Method("forward", values, (), (output,), instructions)], path)
    return path


def run(runner: Path, program: Path, output_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(runner), str(program), "--output-dir", str(output_dir)],
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
        timeout=120,
        check=False,
    )


def test_a_move_between_tensors_runs(runner: Path, tmp_path: Path) -> None:
    # abs of value 1, which the move made the constant: as the exporter's cond moves a
    # branch's result over its output.
    values = (
        Tensor(ScalarType.Float, (2,), constant=CONSTANT),
        Tensor(ScalarType.Float, (2,)),
        Tensor(ScalarType.Float, (2,)),
    )
    program = write(tmp_path / "p.pte", values, MoveCall(0, 1), KernelCall(ABS, (1, 2, 2)))
    result = run(runner, program, tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    np.testing.assert_array_equal(
        np.load(tmp_path / "output0.npy"), np.array([1.5, 2.0], np.float32)
    )


def test_an_int_moved_over_a_kernels_tensor_is_refused_at_load(
    runner: Path, tmp_path: Path
) -> None:
    # Run, abs.out would take the Int 7 as a Tensor pointer.
    values = (7, Tensor(ScalarType.Float, (2,)), Tensor(ScalarType.Float, (2,)))
    program = write(tmp_path / "p.pte", values, MoveCall(0, 1), KernelCall(ABS, (1, 2, 2)))
    result = run(runner, program, tmp_path)
    assert (result.returncode, result.stderr) == (2, f"runner: {program}: move between kinds\n")
    assert not (tmp_path / "output0.npy").exists()


def test_a_tensor_moved_over_a_kernels_scalar_is_refused_at_load(
    runner: Path, tmp_path: Path
) -> None:
    # Run, add.out would read the Tensor pointer as its Int alpha.
    values = (
        Tensor(ScalarType.Float, (2,), constant=CONSTANT),
        Tensor(ScalarType.Float, (2,), constant=CONSTANT),
        1,
        Tensor(ScalarType.Float, (2,)),
    )
    program = write(tmp_path / "p.pte", values, MoveCall(0, 2), KernelCall(ADD, (0, 1, 2, 3, 3)))
    result = run(runner, program, tmp_path)
    assert (result.returncode, result.stderr) == (2, f"runner: {program}: move between kinds\n")
