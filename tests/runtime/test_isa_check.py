"""The start-up check of a runner whose optimized kernels are compiled for more than
x86-64's baseline (runtime/startup/isa_check.cpp, Note [Instruction sets] in
codegen/isa.py), on real runners under qemu-user's x86-64 emulator with processor models
that lack what they were built for: one line naming what is missing, exit 1, nothing else
run; and the same runner running its model where the processor has it. qemu emulates
AVX2 but not AVX-512 (`-cpu max` has the first only)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, REPO, build_in_repository

MLP = REPO / "examples" / "models" / "mlp"
MANIFEST = (
    "# Written by tests/runtime/test_isa_check.py: the mlp on two instruction sets.\n"
    + BOTH_LIBRARIES_FROM_BUILD
    + """
[models.mlp]
path = "../examples/models/mlp/mlp.pte"

[targets.mlp_v3]
models = ["mlp"]
libraries = ["optimized", "portable"]
dtype_selective = true
toolchain = "x86-64-v3"

[targets.mlp_v4]
models = ["mlp"]
libraries = ["optimized", "portable"]
dtype_selective = true
toolchain = "x86-64-v4"
"""
)
LACKS = "runner: this processor lacks "
COMPILED_FOR = (
    ", which this runner was compiled for: build it with a toolchain for this processor"
    ' (README, "Instruction sets")'
)


@pytest.fixture(scope="module")
def qemu() -> str:
    found = shutil.which("qemu-x86_64")
    assert found, "install qemu-user (.ci/run does): qemu-x86_64 is missing"
    return found


def emulated(qemu: str, cpu: str, runner: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    command = [qemu, "-cpu", cpu, str(runner), str(MLP / "mlp.pte")]
    command += ["--input", str(MLP / "in0.npy"), "--output-dir", str(tmp_path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def failure_line(result: subprocess.CompletedProcess[str]) -> str:
    # qemu warns about host features its models name but TCG lacks; those lines are its.
    lines = [line for line in result.stderr.splitlines() if not line.startswith("qemu-x86_64:")]
    assert result.returncode == 1 and len(lines) == 1 and result.stdout == "", result
    return lines[0]


@pytest.mark.parametrize(
    ("target", "cpu", "missing"),
    [
        ("mlp_v4", "max", "avx512f, avx512dq, avx512cd, avx512bw, avx512vl"),
        ("mlp_v3", "Nehalem", "movbe, lzcnt, bmi1, bmi2, avx, f16c, fma, avx2"),
    ],
)
def test_a_processor_without_the_instruction_set_is_named_in_one_line(
    qemu: str, tmp_path: Path, target: str, cpu: str, missing: str
) -> None:
    runner = build_in_repository("isa-tests.toml", MANIFEST, target)
    assert failure_line(emulated(qemu, cpu, runner, tmp_path)) == LACKS + missing + COMPILED_FOR


def test_a_processor_with_it_runs_the_model(qemu: str, tmp_path: Path) -> None:
    runner = build_in_repository("isa-tests.toml", MANIFEST, "mlp_v3")
    result = emulated(qemu, "max", runner, tmp_path)
    assert result.returncode == 0, result.stderr
    np.testing.assert_allclose(
        np.load(tmp_path / "output0.npy"), np.load(MLP / "out0.npy"), rtol=1e-5, atol=1e-6
    )
