"""A program's constant Bool tensor holding a byte other than 0 or 1 is refused when the
method loads, in one line naming the byte (Note [Bool constants] in
runtime/loader/values.cpp): a kernel reading it as a bool was undefined behaviour. Run on
the sanitized include-all runner, where that read was a UBSan report."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.fuzz.sanitized import ENVIRONMENT, sanitized_runner


@pytest.fixture(scope="module")
def runner() -> Path:
    return sanitized_runner()


def logical_not_of_constant(path: Path, data: bytes) -> Path:
    """A program returning logical_not of a constant Bool tensor holding `data`."""
    values = (
        Tensor(ScalarType.Bool, (len(data),), constant=data),
        Tensor(ScalarType.Bool, (len(data),)),
    )
    call = KernelCall(OperatorName.parse("aten::logical_not.out"), (0, 1, 1))
    save_program([Method("forward", values, (), (1,), (call,))], path)
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


def test_a_constant_of_zeros_and_ones_runs(runner: Path, tmp_path: Path) -> None:
    program = logical_not_of_constant(tmp_path / "ok.pte", bytes([1, 0, 0, 1]))
    result = run(runner, program, tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    np.testing.assert_array_equal(np.load(tmp_path / "output0.npy"), [False, True, True, False])


@pytest.mark.parametrize("byte", [2, 0x80, 0xFF])
def test_a_constant_bool_holding_another_byte_is_refused_at_load(
    runner: Path, tmp_path: Path, byte: int
) -> None:
    program = logical_not_of_constant(tmp_path / "hostile.pte", bytes([1, 0, byte, 1]))
    result = run(runner, program, tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"runner: {program}: constant Bool tensor holds the byte {byte} at element 2"
        " (a bool is 0 or 1)\n"
    )
    assert not (tmp_path / "output0.npy").exists()
